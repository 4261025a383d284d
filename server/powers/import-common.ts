/** What the importers (VS Code, Claude Desktop, Cursor, Kiro) share: reading the file, naming, building the power. */
import * as path from 'node:path';
import { valueHash } from '../../shared/hash.js';
import { preview } from '../../shared/preview.js';
import { readTextFile, type FileLimits } from '../../shared/safe-read.js';
import { registerServerSecrets } from './expand-vars.js';
import { withHashes } from './hash.js';
import { parseJsonc } from '../../shared/jsonc.js';
import { normalizeName } from '../../shared/power-name.js';
import { NAME_MAX } from './spell-schema.js';
import type { PowerSourceKind } from '../../protocol/records.js';
import type { LoadIssue, PowerDefinition, ServerSpec } from './types.js';

export interface ImportResult {
  powers: PowerDefinition[];
  issues: LoadIssue[];
}

export type ImportKind = Extract<PowerSourceKind, 'vscode-mcp' | 'claude-desktop' | 'cursor-mcp' | 'kiro-power'>;

/** What a config may say about a power besides its server (a Kiro POWER.md does). */
export interface PowerWords {
  description?: string;
  keywords?: string[];
  steering?: string;
}

/** A missing file gives `undefined` and no issue: most users have only some of these tools. */
export function readConfig(
  file: string,
  issues: LoadIssue[],
  limits?: FileLimits,
): Record<string, unknown> | undefined {
  const read = readTextFile(file, limits);
  if (!read.ok) {
    if (read.reason !== 'missing') issues.push({ file, field: '', message: read.message, fix: read.fix });
    return undefined;
  }
  let data: unknown;
  try {
    data = parseJsonc(read.text);
  } catch (error) {
    issues.push({
      file,
      field: '',
      message: `invalid JSON at ${(error as Error).message}`,
      fix: 'fix the JSON at that position in the file',
    });
    return undefined;
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    issues.push({
      file,
      field: '',
      message: 'the file is not a JSON object',
      fix: 'the file must hold one JSON object { ... }',
    });
    return undefined;
  }
  return data as Record<string, unknown>;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Keeps the string entries of a JSON object (numbers become strings; other values are reported). */
export function stringRecord(value: unknown, field: string, file: string, issues: LoadIssue[]): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) {
    issues.push({
      file,
      field,
      message: `${field} must be an object of strings`,
      fix: `write ${field} as { "NAME": "value" }`,
    });
    return {};
  }
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === 'string') out[key] = v;
    else if (typeof v === 'number' || typeof v === 'boolean') out[key] = String(v);
    else if (v !== null)
      issues.push({
        file,
        field: `${field}.${key}`,
        message: `${field}.${key} must be a string`,
        fix: 'write the value in quotes',
      });
  }
  return out;
}

export function stringList(value: unknown, field: string, file: string, issues: LoadIssue[]): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    issues.push({
      file,
      field,
      message: `${field} must be an array of strings`,
      fix: `write ${field} as [ "arg1", "arg2" ]`,
    });
    return [];
  }
  return value.map(String);
}

/** Builds imported powers in file order, normalising names; the first of two equal names wins. */
export class ImportCollector {
  readonly result: ImportResult = { powers: [], issues: [] };
  private readonly firstKey = new Map<string, string>();

  constructor(
    private readonly kind: ImportKind,
    private readonly file: string,
  ) {}

  /** `key` is the server's key in the config file; returns the power name, or undefined if it was dropped. */
  name(key: string, field: string): string | undefined {
    const name = normalizeName(key);
    if (!name) {
      this.issue(
        field,
        `server name "${preview(key)}" has no letters or digits`,
        'rename it in the config file, e.g. "my-server"',
      );
      return undefined;
    }
    if (name.length > NAME_MAX) {
      this.issue(
        field,
        `server name "${preview(key, 40)}" is longer than ${NAME_MAX} characters`,
        'rename it in the config file to a short name, e.g. "my-server"',
      );
      return undefined;
    }
    const earlier = this.firstKey.get(name);
    if (earlier !== undefined) {
      this.issue(
        field,
        `server "${key}" is ignored: its name becomes "${name}", the same as server "${earlier}"`,
        `rename one of them so their names differ after lowercasing and replacing other characters with "-"`,
      );
      return undefined;
    }
    this.firstKey.set(name, key);
    return name;
  }

  issue(field: string, message: string, fix: string): void {
    this.result.issues.push({ file: this.file, field, message, fix });
  }

  /** Without a description of its own, the power's words come from its tools once they are listed. */
  add(name: string, server: ServerSpec, problems: string[], words: PowerWords = {}): void {
    registerServerSecrets(server);
    const described = !!words.description?.trim();
    this.result.powers.push(
      withHashes({
        name,
        version: '0.0.0',
        description: described ? words.description!.trim() : `The ${name} MCP server (its tools are not listed yet)`,
        keywords: words.keywords ?? [],
        steering: words.steering ?? '',
        server,
        source: { kind: this.kind, file: path.resolve(this.file), readOnly: true },
        derivedFromTools: !described,
        problems,
      }),
    );
  }
}

/**
 * Which server a definition starts, whatever it is named: the command, its arguments and its
 * environment (a local server), or the URL (a remote one). Activation is carried across restarts by
 * it, so that a power of the same name that starts another server is never activated in its place.
 * A hash: the environment may hold secrets.
 */
export function serverIdentity(server: ServerSpec): string {
  return valueHash(
    server.transport === 'stdio'
      ? { command: server.command, args: server.args, env: server.env }
      : { url: server.url },
  );
}

/**
 * Two definitions of one server: the same identity. The same server in two configs is one power,
 * and no warning; the same command with an environment of its own is another server.
 */
export function sameServer(a: ServerSpec, b: ServerSpec): boolean {
  return (a.transport === 'stdio') === (b.transport === 'stdio') && serverIdentity(a) === serverIdentity(b);
}
