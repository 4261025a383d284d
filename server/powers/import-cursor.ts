/** Imports the servers of Cursor's `mcp.json` (`~/.cursor/` and the workspace's `.cursor/`): Claude's shape, VS Code's variables. */
import { mapServerStrings, MissingVars } from './expand-vars.js';
import { claudeShapeServers } from './import-claude.js';
import { ImportCollector, readConfig, type ImportResult } from './import-common.js';
import { inferWorkspace } from '../../shared/config-folder.js';
import { describeMissing, resolveVariables, type VscodeImportContext } from './import-vscode.js';

export function importCursorMcp(file: string, ctx: VscodeImportContext): ImportResult {
  const collector = new ImportCollector('cursor-mcp', file);
  const { issues } = collector.result;
  const config = readConfig(file, issues, ctx.limits);
  if (!config) return collector.result;
  const workspaceFolder = ctx.workspaceFolder ?? inferWorkspace(file, '.cursor');
  for (const { key, field, server: raw } of claudeShapeServers(config, collector, file, issues)) {
    const name = collector.name(key, field);
    if (!name) continue;
    const missing = new MissingVars();
    const other: string[] = [];
    const server = mapServerStrings(raw, (value, where) =>
      resolveVariables(value, `${field}${where.slice('server'.length)}`, { ...ctx, workspaceFolder }, missing, other),
    );
    collector.add(name, server, [...new Set([...missing.problems(describeMissing), ...other])]);
  }
  return collector.result;
}
