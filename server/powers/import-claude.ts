/** Imports the servers of Claude Desktop's `claude_desktop_config.json` as read-only powers. */
import { ImportCollector, isRecord, readConfig, stringList, stringRecord, type ImportResult } from './import-common.js';
import type { ServerSpec } from './types.js';
import type { FileLimits } from '../util/safe-read.js';

/** Claude Desktop passes values through as written: no variable expansion. */
export function importClaudeDesktop(file: string, limits?: FileLimits): ImportResult {
  const collector = new ImportCollector('claude-desktop', file);
  const { issues } = collector.result;
  const config = readConfig(file, issues, limits);
  if (!config || config.mcpServers === undefined) return collector.result;
  if (!isRecord(config.mcpServers)) {
    collector.issue('mcpServers', '"mcpServers" must be an object of named servers', 'write "mcpServers": { "name": { "command": ... } }');
    return collector.result;
  }
  for (const [key, entry] of Object.entries(config.mcpServers)) {
    const field = `mcpServers.${key}`;
    if (!isRecord(entry)) {
      collector.issue(field, `server "${key}" must be an object`, 'write it as { "command": ..., "args": [...] } or { "url": ... }');
      continue;
    }
    let server: ServerSpec;
    if (typeof entry.command === 'string' && entry.command) {
      server = {
        transport: 'stdio',
        command: entry.command,
        args: stringList(entry.args, `${field}.args`, file, issues),
        env: stringRecord(entry.env, `${field}.env`, file, issues),
      };
    } else if (typeof entry.url === 'string' && entry.url) {
      const transport = entry.type === 'sse' || entry.transport === 'sse' ? 'sse' : 'http';
      server = { transport, url: entry.url, headers: stringRecord(entry.headers, `${field}.headers`, file, issues) };
    } else {
      collector.issue(field, `server "${key}" has neither "command" nor "url"`, 'add "command" (with "args") for a local server or "url" for a remote one');
      continue;
    }
    const name = collector.name(key, field);
    if (name) collector.add(name, server, []);
  }
  return collector.result;
}
