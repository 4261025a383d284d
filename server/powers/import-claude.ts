/** Imports the servers of Claude Desktop's `claude_desktop_config.json` as read-only powers. */
import {
  ImportCollector,
  isRecord,
  readConfig,
  stringList,
  stringRecord,
  type ImportKind,
  type ImportResult,
} from './import-common.js';
import type { LoadIssue, ServerSpec } from './types.js';
import type { FileLimits } from '../../shared/safe-read.js';

/** One server of a config in Claude's shape (`mcpServers`: Claude Desktop, Cursor, Kiro powers). */
export interface ClaudeShapeEntry {
  key: string;
  field: string;
  server: ServerSpec;
}

/**
 * The servers of a config in Claude's shape, in file order; a server marked `"disabled": true` is
 * left out, as the tool that owns the config leaves it out.
 */
export function claudeShapeServers(
  config: Record<string, unknown>,
  collector: ImportCollector,
  file: string,
  issues: LoadIssue[],
): ClaudeShapeEntry[] {
  if (config.mcpServers === undefined) return [];
  if (!isRecord(config.mcpServers)) {
    collector.issue(
      'mcpServers',
      '"mcpServers" must be an object of named servers',
      'write "mcpServers": { "name": { "command": ... } }',
    );
    return [];
  }
  const entries: ClaudeShapeEntry[] = [];
  for (const [key, entry] of Object.entries(config.mcpServers)) {
    const field = `mcpServers.${key}`;
    if (!isRecord(entry)) {
      collector.issue(
        field,
        `server "${key}" must be an object`,
        'write it as { "command": ..., "args": [...] } or { "url": ... }',
      );
      continue;
    }
    if (entry.disabled === true) continue;
    if (typeof entry.command === 'string' && entry.command) {
      const server: ServerSpec = {
        transport: 'stdio',
        command: entry.command,
        args: stringList(entry.args, `${field}.args`, file, issues),
        env: stringRecord(entry.env, `${field}.env`, file, issues),
      };
      if (typeof entry.cwd === 'string' && entry.cwd) server.cwd = entry.cwd;
      entries.push({ key, field, server });
    } else if (typeof entry.url === 'string' && entry.url) {
      const transport = entry.type === 'sse' || entry.transport === 'sse' ? 'sse' : 'http';
      entries.push({
        key,
        field,
        server: { transport, url: entry.url, headers: stringRecord(entry.headers, `${field}.headers`, file, issues) },
      });
    } else {
      collector.issue(
        field,
        `server "${key}" has neither "command" nor "url"`,
        'add "command" (with "args") for a local server or "url" for a remote one',
      );
    }
  }
  return entries;
}

/** Claude Desktop passes values through as written: no variable expansion. */
export function importClaudeDesktop(
  file: string,
  kind: ImportKind = 'claude-desktop',
  limits?: FileLimits,
): ImportResult {
  const collector = new ImportCollector(kind, file);
  const { issues } = collector.result;
  const config = readConfig(file, issues, limits);
  if (!config) return collector.result;
  for (const { key, field, server } of claudeShapeServers(config, collector, file, issues)) {
    const name = collector.name(key, field);
    if (name) collector.add(name, server, []);
  }
  return collector.result;
}
