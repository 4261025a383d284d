/** Where VS Code, Claude Desktop, Cursor and Kiro keep their MCP configs on each platform. */
import * as path from 'node:path';
import type { ImportKind } from './import-common.js';

export interface ImportLocation {
  kind: ImportKind;
  /** A config file; for Kiro, the folder that holds the power folders. */
  file: string;
}

/** The settings' import toggles (`imports.*`). */
export interface ImportToggles {
  vscode: boolean;
  claudeDesktop: boolean;
  cursor: boolean;
  kiro: boolean;
}

const TOGGLE: Record<ImportKind, keyof ImportToggles> = {
  'vscode-mcp': 'vscode',
  'claude-desktop': 'claudeDesktop',
  'cursor-mcp': 'cursor',
  'kiro-power': 'kiro',
};

export function defaultImportLocations(
  home: string,
  platform: NodeJS.Platform,
  env: Record<string, string | undefined>,
  workspaceFolder?: string,
): ImportLocation[] {
  const p = platform === 'win32' ? path.win32 : path.posix;
  const configRoot =
    platform === 'win32'
      ? env.APPDATA || p.join(home, 'AppData', 'Roaming')
      : platform === 'darwin'
        ? p.join(home, 'Library', 'Application Support')
        : env.XDG_CONFIG_HOME || p.join(home, '.config');
  const locations: ImportLocation[] = [];
  if (workspaceFolder) locations.push({ kind: 'vscode-mcp', file: p.join(workspaceFolder, '.vscode', 'mcp.json') });
  locations.push(
    { kind: 'vscode-mcp', file: p.join(configRoot, 'Code', 'User', 'mcp.json') },
    { kind: 'claude-desktop', file: p.join(configRoot, 'Claude', 'claude_desktop_config.json') },
  );
  if (workspaceFolder) locations.push({ kind: 'cursor-mcp', file: p.join(workspaceFolder, '.cursor', 'mcp.json') });
  locations.push({ kind: 'cursor-mcp', file: p.join(home, '.cursor', 'mcp.json') });
  if (workspaceFolder) locations.push({ kind: 'kiro-power', file: p.join(workspaceFolder, '.kiro', 'powers') });
  locations.push({ kind: 'kiro-power', file: p.join(home, '.kiro', 'powers') });
  return locations;
}

/** The locations whose import the settings leave on. */
export function enabledImportLocations(locations: ImportLocation[], toggles: ImportToggles): ImportLocation[] {
  return locations.filter((location) => toggles[TOGGLE[location.kind]]);
}
