import * as path from 'node:path';

/** `<folder>/.vscode/mcp.json` (or `.cursor/`) -> `<folder>`. */
export function inferWorkspace(file: string, configFolder = '.vscode'): string | undefined {
  const dir = path.dirname(path.resolve(file));
  return path.basename(dir) === configFolder ? path.dirname(dir) : undefined;
}
