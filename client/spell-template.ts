/** Spell file text for "New Spell File...": a template, or a server entry of an mcp.json. No `vscode` import. */
import * as path from 'node:path';
import { parseJsonc } from '../server/powers/jsonc.js';
import { powerNameFrom } from '../server/spells/power-name.js';

export const SPELL_NAME = /^[a-z0-9-]+$/;

export interface McpEntry {
  file: string;
  key: string;
  config: Record<string, unknown>;
}

/** The servers of a VS Code `mcp.json` (`servers`) or a Claude Desktop config (`mcpServers`). */
export function mcpEntries(file: string, text: string): McpEntry[] {
  let json: unknown;
  try {
    json = parseJsonc(text);
  } catch {
    return [];
  }
  if (!isRecord(json)) return [];
  const servers = isRecord(json.servers) ? json.servers : isRecord(json.mcpServers) ? json.mcpServers : {};
  return Object.entries(servers)
    .filter((entry): entry is [string, Record<string, unknown>] => isRecord(entry[1]))
    .map(([key, config]) => ({ file, key, config }));
}

/** A valid power name from any server key: lowercase, a-z 0-9 and "-". */
export const spellName = powerNameFrom;

export function templateSpell(name: string): string {
  return `# A Grimoire power: one MCP server, with the words that let an agent find it.
name: ${name}
version: 1.0.0
description: Say in one sentence what this power does.
keywords: [first-keyword, second-keyword, third-keyword]
steering: |
  Guidance the agent reads with every tool of this power:
  - which tool to call first, and which to prefer;
  - what to check before a change.
server:
  # The program that starts the MCP server over stdio, e.g. command: npx with args: ["-y", "<npm package>"];
  # or transport: http with url: https://... for a remote server.
  command: my-mcp-server
  args: []
  env: {}
`;
}

/**
 * A spell for an mcp.json server. VS Code variables become spell variables: `${env:X}` and
 * `${input:x}` read `${X}` from the environment, `${workspaceFolder}` is written out.
 */
export function spellFromMcpEntry(entry: McpEntry, options: { workspaceFolder?: string; toolNames?: string[] } = {}): string {
  const name = spellName(entry.key);
  const inputs = new Set<string>();
  const convert = (value: unknown): string => convertVariables(String(value), options.workspaceFolder, inputs);
  const c = entry.config;
  const remote = c.type === 'http' || c.type === 'sse' || (typeof c.url === 'string' && c.command === undefined);
  const server = remote
    ? { transport: c.type === 'sse' ? 'sse' : 'http', url: convert(c.url ?? ''), headers: mapValues(c.headers, convert) }
    : {
        command: convert(c.command ?? ''),
        args: Array.isArray(c.args) ? c.args.map(convert) : [],
        env: mapValues(c.env, convert),
        ...(typeof c.cwd === 'string' ? { cwd: convert(c.cwd) } : {}),
      };
  const header = [
    `# Made from "${entry.key}" in ${entry.file}.`,
    ...[...inputs].map((input) => `# \${${input}} was an mcp.json input: set it in the environment VS Code starts from.`),
  ];
  return [
    ...header,
    `name: ${name}`,
    'version: 1.0.0',
    `description: ${quote(`Tools of the "${entry.key}" MCP server. Say in one sentence what it does: intent resolution matches against it.`)}`,
    `keywords: [${keywordsFor(entry.key, options.toolNames ?? []).map(quote).join(', ')}]`,
    'steering: |',
    `  Guidance the agent reads with every tool of ${name}: which tool to call first, and what to check before a change.`,
    'server:',
    ...Object.entries(server).map(([key, value]) => `  ${key}:${yamlValue(value)}`),
    '',
  ].join('\n');
}

/** JSON strings are valid YAML double-quoted scalars: every value is written that way, nothing is left to interpretation. */
function quote(text: string): string {
  return JSON.stringify(text);
}

/** The value after `key:`, inline or as an indented block. */
function yamlValue(value: string | string[] | Record<string, string>): string {
  if (typeof value === 'string') return ` ${quote(value)}`;
  if (Array.isArray(value)) return ` [${value.map(quote).join(', ')}]`;
  const entries = Object.entries(value);
  return entries.length ? entries.map(([key, item]) => `\n    ${quote(key)}: ${quote(item)}`).join('') : ' {}';
}

function convertVariables(value: string, workspaceFolder: string | undefined, inputs: Set<string>): string {
  return value.replace(/\$\{([^}]+)\}/g, (whole, inner: string) => {
    if (inner === 'workspaceFolder') return workspaceFolder ?? whole;
    if (inner === 'userHome') return '${HOME}';
    const env = /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(inner);
    if (env) return `\${${env[1]}}`;
    const input = /^input:(.+)$/.exec(inner);
    if (input) {
      const variable = input[1].toUpperCase().replace(/[^A-Z0-9_]+/g, '_');
      inputs.add(variable);
      return `\${${variable}}`;
    }
    return whole;
  });
}

/** 3 to 20 words from the server key and its tool names. */
export function keywordsFor(key: string, toolNames: string[]): string[] {
  const words = [key, ...toolNames]
    .flatMap((text) => text.toLowerCase().split(/[^a-z0-9]+/))
    .filter((word) => word.length > 2);
  const unique = [...new Set([...words, 'mcp', 'server', 'tools'])];
  return unique.slice(0, 20);
}

function mapValues(value: unknown, convert: (value: unknown) => string): Record<string, string> {
  if (!isRecord(value)) return {};
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convert(v)]));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function spellFileName(name: string): string {
  return `${name}.spell.yaml`;
}

export function describeEntry(entry: McpEntry): string {
  return `${entry.key} (${path.basename(entry.file)})`;
}
