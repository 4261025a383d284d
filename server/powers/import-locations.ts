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

/** Where a platform keeps things: `p` joins paths the platform's way; `configRoot` is the per-user config folder. */
interface Roots {
  p: path.PlatformPath;
  home: string;
  configRoot: string;
  workspaceFolder?: string;
}

/** Each kind's configs, the workspace's first: an entry read earlier wins over the same server read later. */
const LOCATIONS: Record<ImportKind, (roots: Roots) => Array<string | undefined>> = {
  'vscode-mcp': ({ p, configRoot, workspaceFolder }) => [
    workspaceFolder ? p.join(workspaceFolder, '.vscode', 'mcp.json') : undefined,
    p.join(configRoot, 'Code', 'User', 'mcp.json'),
  ],
  'claude-desktop': ({ p, configRoot }) => [p.join(configRoot, 'Claude', 'claude_desktop_config.json')],
  'cursor-mcp': ({ p, home, workspaceFolder }) => [
    workspaceFolder ? p.join(workspaceFolder, '.cursor', 'mcp.json') : undefined,
    p.join(home, '.cursor', 'mcp.json'),
  ],
  'kiro-power': ({ p, home, workspaceFolder }) => [
    workspaceFolder ? p.join(workspaceFolder, '.kiro', 'powers') : undefined,
    p.join(home, '.kiro', 'powers'),
  ],
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
  const roots: Roots = { p, home, configRoot, workspaceFolder };
  return (Object.keys(LOCATIONS) as ImportKind[]).flatMap((kind) =>
    LOCATIONS[kind](roots)
      .filter((file): file is string => file !== undefined)
      .map((file) => ({ kind, file })),
  );
}

/** The locations whose import the settings leave on. */
export function enabledImportLocations(locations: ImportLocation[], toggles: ImportToggles): ImportLocation[] {
  return locations.filter((location) => toggles[TOGGLE[location.kind]]);
}
