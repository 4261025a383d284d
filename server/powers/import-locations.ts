/** Where VS Code and Claude Desktop keep their MCP configs on each platform. */
import * as path from 'node:path';
import type { ImportKind } from './import-common.js';

export interface ImportLocation {
  kind: ImportKind;
  file: string;
}

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
  return locations;
}
