/** Imports the servers of a VS Code `mcp.json` (user or workspace) as read-only powers. */
import * as os from 'node:os';
import * as path from 'node:path';
import { inferWorkspace } from '../../shared/config-folder.js';
import { readTextFile, type FileLimits } from '../../shared/safe-read.js';
import { mapServerStrings, MissingVars, type Vars } from './expand-vars.js';
import { ImportCollector, isRecord, readConfig, stringList, stringRecord, type ImportResult } from './import-common.js';
import type { LoadIssue, PowerDefinition, ServerSpec } from './types.js';

export interface VscodeImportContext {
  env: Vars;
  /** For `${workspaceFolder}`; inferred from a `<folder>/.vscode/mcp.json` path when absent. */
  workspaceFolder?: string;
  /** For `${userHome}`; default os.homedir(). */
  home?: string;
  /** Size and time limits for reading the config and its envFile. */
  limits?: FileLimits;
}

/** VS Code offers the servers of its own mcp.json to its agent directly, besides Grimoire: their tools are listed twice. */
export function offeredDirectlyByVsCode(power: PowerDefinition): boolean {
  return power.source.kind === 'vscode-mcp';
}

export function importVscodeMcp(file: string, ctx: VscodeImportContext): ImportResult {
  const collector = new ImportCollector('vscode-mcp', file);
  const { issues } = collector.result;
  const config = readConfig(file, issues, ctx.limits);
  if (!config || config.servers === undefined) return collector.result;
  if (!isRecord(config.servers)) {
    collector.issue(
      'servers',
      '"servers" must be an object of named servers',
      'write "servers": { "name": { "command": ... } }',
    );
    return collector.result;
  }
  const workspaceFolder = ctx.workspaceFolder ?? inferWorkspace(file);
  for (const [key, entry] of Object.entries(config.servers)) {
    const field = `servers.${key}`;
    if (!isRecord(entry)) {
      collector.issue(
        field,
        `server "${key}" must be an object`,
        'write it as { "command": ..., "args": [...] } or { "type": "http", "url": ... }',
      );
      continue;
    }
    const raw = rawServer(key, entry, file, issues, collector);
    if (!raw) continue;
    const name = collector.name(key, field);
    if (!name) continue;
    const missing = new MissingVars();
    const other: string[] = [];
    const server = mapServerStrings(raw, (value, where) =>
      resolveVariables(value, `${field}${where.slice('server'.length)}`, { ...ctx, workspaceFolder }, missing, other),
    );
    const problems = [...missing.problems(describeMissing), ...other];
    if (server.transport === 'stdio' && typeof entry.envFile === 'string') {
      const envFile = resolveVariables(
        entry.envFile,
        `${field}.envFile`,
        { ...ctx, workspaceFolder },
        missing,
        problems,
      );
      server.env = {
        ...readEnvFile(
          path.resolve(workspaceFolder ?? path.dirname(file), envFile),
          `${field}.envFile`,
          problems,
          ctx.limits,
        ),
        ...server.env,
      };
    }
    collector.add(name, server, [...new Set(problems)]);
  }
  return collector.result;
}

function rawServer(
  key: string,
  entry: Record<string, unknown>,
  file: string,
  issues: LoadIssue[],
  collector: ImportCollector,
): ServerSpec | undefined {
  const field = `servers.${key}`;
  const type = entry.type ?? (entry.url !== undefined && entry.command === undefined ? 'http' : 'stdio');
  if (type === 'stdio') {
    if (typeof entry.command !== 'string' || !entry.command) {
      collector.issue(
        `${field}.command`,
        `server "${key}" has no command`,
        'add "command": the program that starts the server (or "type": "http" with "url")',
      );
      return undefined;
    }
    const server: ServerSpec = {
      transport: 'stdio',
      command: entry.command,
      args: stringList(entry.args, `${field}.args`, file, issues),
      env: stringRecord(entry.env, `${field}.env`, file, issues),
    };
    if (typeof entry.cwd === 'string') server.cwd = entry.cwd;
    return server;
  }
  if (type === 'http' || type === 'sse') {
    if (typeof entry.url !== 'string' || !entry.url) {
      collector.issue(`${field}.url`, `server "${key}" has no url`, 'add "url": the address of the MCP server');
      return undefined;
    }
    return { transport: type, url: entry.url, headers: stringRecord(entry.headers, `${field}.headers`, file, issues) };
  }
  collector.issue(
    `${field}.type`,
    `server type ${JSON.stringify(type)} is not supported`,
    'use "type": "stdio", "http" or "sse"',
  );
  return undefined;
}

export function describeMissing(name: string, where: string): string {
  return `environment variable ${name} is not set (used in ${where}): set it in the environment or in a spell`;
}

/** VS Code's own variables (Cursor reads the same ones); those that need the editor's UI become problems instead. */
export function resolveVariables(
  value: string,
  where: string,
  ctx: VscodeImportContext,
  missing: MissingVars,
  problems: string[],
): string {
  return value.replace(/\$\{([^}]+)\}/g, (match, variable: string) => {
    if (variable.startsWith('env:')) {
      const name = variable.slice(4);
      const found = ctx.env[name];
      if (found === undefined) missing.add(name, where);
      return found ?? '';
    }
    if (variable === 'userHome') return ctx.home ?? os.homedir();
    if (variable === 'pathSeparator' || variable === '/') return path.sep;
    if (variable === 'workspaceFolder' || variable === 'workspaceFolderBasename') {
      if (ctx.workspaceFolder === undefined) {
        problems.push(
          `\${${variable}} has no value outside a workspace (used in ${where}): open the workspace, or write the path in a spell`,
        );
        return '';
      }
      return variable === 'workspaceFolder' ? ctx.workspaceFolder : path.basename(ctx.workspaceFolder);
    }
    if (variable.startsWith('input:')) {
      problems.push(
        `VS Code input ${match} cannot be prompted for outside VS Code (used in ${where}): ` +
          `define it as an environment variable and use \${env:NAME} instead, ` +
          `or configure this server in a spell`,
      );
      return '';
    }
    problems.push(
      `VS Code variable ${match} is not supported outside VS Code (used in ${where}): ` +
        `replace it with \${env:NAME} or a literal value, or configure this server in a spell`,
    );
    return match;
  });
}

function readEnvFile(file: string, where: string, problems: string[], limits?: FileLimits): Record<string, string> {
  const read = readTextFile(file, limits);
  if (!read.ok) {
    problems.push(
      `cannot read the envFile ${file} (used in ${where}): ${read.message}: ` +
        `${read.reason === 'missing' ? 'create it or remove "envFile"' : read.fix}`,
    );
    return {};
  }
  const env: Record<string, string> = {};
  for (const line of read.text.split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!m) continue;
    const quoted = /^(['"])(.*)\1$/.exec(m[2]);
    env[m[1]] = quoted ? quoted[2] : m[2].replace(/\s+#.*$/, '');
  }
  return env;
}
