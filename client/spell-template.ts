/**
 * Spell file text for "New Spell File...": a template, or a server entry of an mcp.json, whose
 * keywords the gateway picks (protocol.spellKeywords, asked with keywordQuery). No `vscode` import.
 */
import * as path from 'node:path';
import type { SpellKeywordsParams } from '../protocol/extension-methods.js';
import { parseJsonc } from '../shared/jsonc.js';
import { powerNameFrom } from '../shared/power-name.js';
import {
  isPlaceholderDescription,
  PLACEHOLDER_KEYWORDS,
  serverPlaceholderDescription,
  TEMPLATE_DESCRIPTION,
  TEMPLATE_STEERING,
} from '../shared/placeholders.js';

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
# The description, keywords and steering below are placeholders: the editor flags them until you write your own.
name: ${name}
version: 1.0.0
description: ${quote(TEMPLATE_DESCRIPTION)}
keywords: [${PLACEHOLDER_KEYWORDS.join(', ')}]
steering: |
${TEMPLATE_STEERING.map((line) => `  ${line}`).join('\n')}
server:
  # The program that starts the MCP server over stdio, e.g. command: npx with args: ["-y", "<npm package>"];
  # or transport: http with url: https://... for a remote server.
  command: my-mcp-server
  args: []
  env: {}
`;
}

/** What the gateway already knows of the server, when it has listed its tools. */
export interface KnownServer {
  /** As the Powers view shows it: from the server's instructions and tools. */
  description: string;
  toolNames: string[];
}

export interface McpSpellOptions {
  /** From the gateway (protocol.spellKeywords), asked with keywordQuery(entry, known). */
  keywords: readonly string[];
  /**
   * Written out for `${workspaceFolder}`: only for a spell kept outside that workspace's `.grimoire/` (where
   * the variable has its value).
   */
  workspaceFolder?: string;
  known?: KnownServer;
  /** The first comment lines (default: where the entry came from). */
  header?: string[];
}

/**
 * A spell for an mcp.json server. VS Code variables become spell variables: `${env:X}` and
 * `${input:x}` read `${X}` from the environment, `${workspaceFolder}` stays a variable unless
 * `workspaceFolder` is given, `${secret:NAME}` is kept. No steering: only the user can say what to steer.
 */
export function spellFromMcpEntry(entry: McpEntry, options: McpSpellOptions): string {
  const name = spellName(entry.key);
  const inputs = new Set<string>();
  const convert = (value: unknown): string => convertVariables(String(value), options.workspaceFolder, inputs);
  const c = entry.config;
  const remote = c.type === 'http' || c.type === 'sse' || (typeof c.url === 'string' && c.command === undefined);
  const server = remote
    ? {
        transport: c.type === 'sse' ? 'sse' : 'http',
        url: convert(c.url ?? ''),
        headers: mapValues(c.headers, convert),
      }
    : {
        command: convert(c.command ?? ''),
        args: Array.isArray(c.args) ? c.args.map(convert) : [],
        env: mapValues(c.env, convert),
        ...(typeof c.cwd === 'string' ? { cwd: convert(c.cwd) } : {}),
      };
  const known = usable(options.known);
  const description = known ? known.description : serverPlaceholderDescription(entry.key);
  const { keywords } = options;
  const header = [
    ...(options.header ?? [
      `# Made from "${entry.key}" in ${path.join(path.basename(path.dirname(entry.file)), path.basename(entry.file))}.`,
    ]),
    ...[...inputs].map(
      (input) => `# \${${input}} was an mcp.json input: set it in the environment VS Code starts from.`,
    ),
    ...(known
      ? []
      : [
          '# Its tools were not listed yet: the description is a placeholder (the editor flags it until you write it).',
        ]),
    ...(keywords.some((word) => PLACEHOLDER_KEYWORDS.includes(word))
      ? ['# Too few telling words were found for keywords: replace the placeholders.']
      : []),
  ];
  return [
    ...header,
    `name: ${name}`,
    'version: 1.0.0',
    `description: ${quote(description)}`,
    `keywords: [${keywords.map(quote).join(', ')}]`,
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
    if (inner === 'workspaceFolderBasename') return workspaceFolder ? path.basename(workspaceFolder) : whole;
    if (inner === 'pathSeparator' || inner === '/') return path.sep;
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

/** What the gateway knows of the server, when it tells something: its tools were listed and its description is no placeholder. */
function usable(known: KnownServer | undefined): KnownServer | undefined {
  return known && known.toolNames.length > 0 && !isPlaceholderDescription(known.description) ? known : undefined;
}

/** What the gateway is asked for the spell's keywords (protocol.spellKeywords): the key, the npm package, and what is known. */
export function keywordQuery(entry: McpEntry, known?: KnownServer): SpellKeywordsParams {
  const told = usable(known);
  const packageName = packageOf(entry.config);
  return {
    key: entry.key,
    toolNames: told?.toolNames ?? [],
    ...(told ? { description: told.description } : {}),
    ...(packageName === undefined ? {} : { packageName }),
  };
}

/**
 * The npm package an `npx` entry runs, without its scope and the usual "server-"/"mcp-" prefixes: "memory"
 * for @modelcontextprotocol/server-memory.
 */
function packageOf(config: Record<string, unknown>): string | undefined {
  const args = Array.isArray(config.args) ? config.args.filter((arg): arg is string => typeof arg === 'string') : [];
  const spec = args.find((arg) => !arg.startsWith('-') && /^(@[\w.-]+\/)?[\w.-]+(@[\w.^~-]+)?$/.test(arg));
  if (!spec || (config.command !== 'npx' && config.command !== 'bunx' && config.command !== 'uvx')) return undefined;
  return spec
    .replace(/^@[\w.-]+\//, '')
    .replace(/@.*$/, '')
    .replace(/^(mcp-server-|server-|mcp-)|(-mcp-server|-mcp|-server)$/g, '');
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
