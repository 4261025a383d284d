/** Reads one spell file into a PowerDefinition, turning every problem into a LoadIssue with a fix. */
import * as os from 'node:os';
import * as path from 'node:path';
import type { z } from 'zod';
import { readTextFile, type FileLimits } from '../../shared/safe-read.js';
import { isPlaceholderSteering } from '../../shared/placeholders.js';
import { resolvePaths } from '../../shared/grimoire-paths.js';
import { readSecret, secretsFolder } from '../../shared/secret-files.js';
import { expandServer, type SecretSource, type Vars } from './expand-vars.js';
import { withHashes } from './hash.js';
import {
  serverKeys,
  spellKeys,
  spellSchema,
  splitMessage,
  type SpellExtensions,
  type SpellFile,
} from './spell-schema.js';
import type { LoadIssue, PowerDefinition, ServerSpec } from './types.js';
import { readYaml } from './yaml-limits.js';
import { commandExists, lookupFor } from '../util/command-lookup.js';

export interface SpellLoadContext {
  env: Vars;
  /** Extra variables for `${VAR}` expansion; they win over `env`. */
  vars?: Record<string, string>;
  kind?: 'spell' | 'demo';
  /** Size and time limits for reading the file (default: the settings' defaults). */
  limits?: FileLimits;
  /** Where `${secret:NAME}` is read (default: the secrets folder of the data folder `env` names). */
  secretsFolder?: string;
}

export interface SpellLoadResult {
  power?: PowerDefinition;
  /** hints / annotations / cache / when: validated here, not part of PowerDefinition. */
  extensions?: SpellExtensions;
  issues: LoadIssue[];
}

export const SPELL_SUFFIXES = ['.spell.yaml', '.spell.yml'];

export function isSpellFileName(name: string): boolean {
  return SPELL_SUFFIXES.some((suffix) => name.endsWith(suffix) && name.length > suffix.length);
}

export function loadSpellFile(file: string, ctx: SpellLoadContext): SpellLoadResult {
  const read = readTextFile(file, ctx.limits);
  if (!read.ok) return { issues: [{ file, field: '', message: read.message, fix: read.fix }] };
  return parseSpell(read.text, file, ctx);
}

/** Also usable on an unsaved editor buffer: `file` only names the source. */
export function parseSpell(text: string, file: string, ctx: SpellLoadContext): SpellLoadResult {
  const yaml = readYaml(text);
  if (!yaml.ok)
    return {
      issues: yaml.problems.map(({ line, column, message, fix }) => ({ file, field: '', line, column, message, fix })),
    };
  const issue = (field: string, message: string, fix: string): LoadIssue => ({
    file,
    field,
    ...yaml.positionOf(field ? field.split('.') : []),
    message,
    fix,
  });
  const data = yaml.data;
  if (data === null || data === undefined) {
    return {
      issues: [issue('', 'the file is empty', 'write a spell: name, version, description, keywords and server')],
    };
  }
  if (typeof data !== 'object' || Array.isArray(data)) {
    return {
      issues: [
        issue('', 'the file is not a YAML mapping', 'write the spell as key: value lines (name:, version:, ...)'),
      ],
    };
  }
  const parsed = spellSchema.safeParse(data);
  if (!parsed.success) {
    // Every check at once: the command is looked up even while other fields are wrong.
    const raw = data as Record<string, unknown>;
    const missing = missingCommandIssue(raw, spellVars(file, ctx), issue);
    const unknown = unknownKeys(raw as SpellFile, issue).map((found): LoadIssue => ({ ...found, severity: 'warning' }));
    return {
      issues: [
        ...firstPerField(parsed.error.issues.map((iss) => zodIssue(iss, issue))),
        ...unknown,
        ...(missing ? [missing] : []),
      ],
    };
  }
  const spell = parsed.data;
  const issues = [...unknownKeys(spell, issue), ...fileNameIssues(file, spell.name, issue)];
  const { server, problems } = expandServer(serverSpec(spell), spellVars(file, ctx), spellSecrets(ctx));
  if (problems.length === 0) problems.push(...urlProblems(server));
  const kind = ctx.kind ?? 'spell';
  const extensions: SpellExtensions = {};
  if (spell.hints) extensions.hints = spell.hints;
  if (spell.annotations) extensions.annotations = spell.annotations;
  if (spell.cache) extensions.cache = spell.cache;
  if (spell.when) extensions.when = spell.when;
  const power = withHashes(
    {
      name: spell.name,
      version: spell.version,
      description: spell.description,
      keywords: spell.keywords,
      // A placeholder left in the file is flagged by the checker and never reaches the agent.
      steering: isPlaceholderSteering(spell.steering) ? '' : (spell.steering ?? ''),
      server,
      source: { kind, file: path.resolve(file), readOnly: kind === 'demo' },
      derivedFromTools: false,
      problems,
    },
    extensions,
  );
  return { power, extensions, issues };
}

/**
 * The variables a spell's server fields see: the environment, `${workspaceFolder}` (and
 * `${workspaceFolderBasename}`) for a spell of a
 * workspace's `.grimoire/` folder (so that a committed spell names no absolute path), then the context's own.
 */
function spellVars(file: string, ctx: SpellLoadContext): Vars {
  const dir = path.dirname(path.resolve(file));
  // The Grimoire folder itself may be named .grimoire (~/.grimoire): its spells belong to no workspace.
  const grimoireHomes = [resolvePaths(ctx.env).home, path.join(ctx.env.HOME || os.homedir(), '.grimoire')].map((home) =>
    path.resolve(home),
  );
  const workspace =
    path.basename(dir) === '.grimoire' && !grimoireHomes.includes(dir)
      ? { workspaceFolder: path.dirname(dir), workspaceFolderBasename: path.basename(path.dirname(dir)) }
      : {};
  return { ...ctx.env, ...workspace, ...ctx.vars };
}

/** `${secret:NAME}`: a 0600 file of the secrets folder in the data folder the environment names. */
function spellSecrets(ctx: SpellLoadContext): SecretSource {
  const folder = ctx.secretsFolder ?? secretsFolder(resolvePaths(ctx.env).data);
  return (name) => readSecret(folder, name);
}

type MakeIssue = (field: string, message: string, fix: string) => LoadIssue;

/** The words of the PATH check, the same in the editor, the Powers tree and `grimoire spells check`. */
export function commandNotFoundText(command: string): { message: string; fix: string } {
  return {
    message: `command "${command}" was not found on PATH: the power cannot start`,
    fix: 'install the program, or give its full path',
  };
}

/** A stdio `server.command` (written out, its variables set) that is not on PATH, from a spell that does not load as a whole. */
function missingCommandIssue(data: Record<string, unknown>, vars: Vars, issue: MakeIssue): LoadIssue | undefined {
  const server = data.server;
  if (!server || typeof server !== 'object' || Array.isArray(server)) return undefined;
  const { command, env, cwd, transport } = server as Record<string, unknown>;
  if (typeof command !== 'string' || !command.trim() || (transport !== undefined && transport !== 'stdio'))
    return undefined;
  const strings = (value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(
          Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
        )
      : {};
  const spec: ServerSpec = {
    transport: 'stdio',
    command,
    args: [],
    env: strings(env),
    ...(typeof cwd === 'string' ? { cwd } : {}),
  };
  const expanded = expandServer(spec, vars);
  if (expanded.problems.length > 0 || expanded.server.transport !== 'stdio') return undefined;
  if (commandExists(expanded.server.command, lookupFor(expanded.server.env, expanded.server.cwd))) return undefined;
  const text = commandNotFoundText(expanded.server.command);
  return { ...issue('server.command', text.message, text.fix), severity: 'warning' };
}

function zodIssue(iss: z.core.$ZodIssue, issue: MakeIssue): LoadIssue {
  const { message, fix } = splitMessage(iss.message);
  return issue(iss.path.map(String).join('.'), message, fix);
}

/** zod also runs a field's checks after its type check failed; the first issue is the useful one. */
function firstPerField(issues: LoadIssue[]): LoadIssue[] {
  const seen = new Set<string>();
  return issues.filter((i) => !seen.has(i.field) && !!seen.add(i.field));
}

function serverSpec(spell: SpellFile): ServerSpec {
  const s = spell.server;
  if (s.transport === 'stdio') {
    return {
      transport: 'stdio',
      command: s.command,
      args: s.args,
      env: s.env,
      ...(s.cwd !== undefined ? { cwd: s.cwd } : {}),
    };
  }
  return { transport: s.transport, url: s.url, headers: s.headers };
}

/** Keys the schema does not know, at the top level and in `server` (also of a spell that does not parse: `server` may be anything then). */
function unknownKeys(spell: SpellFile, issue: MakeIssue): LoadIssue[] {
  const found: LoadIssue[] = [];
  for (const key of Object.keys(spell)) {
    if (!spellKeys.includes(key)) found.push(unknownKey(key, key, spellKeys, issue));
  }
  const server: unknown = spell.server;
  if (!server || typeof server !== 'object' || Array.isArray(server)) return found;
  const transport = (server as { transport?: unknown }).transport;
  const known = transport === undefined || transport === 'stdio' ? serverKeys.stdio : serverKeys.remote;
  for (const key of Object.keys(server)) {
    if (key === 'auth') {
      found.push(
        issue(
          'server.auth',
          'server.auth is not supported and is ignored',
          'send the credential as a header instead, e.g. headers: { Authorization: "Bearer ${API_TOKEN}" }',
        ),
      );
    } else if (!(known as readonly string[]).includes(key)) {
      found.push(unknownKey(`server.${key}`, key, known, issue));
    }
  }
  return found;
}

export function unknownKey(field: string, key: string, known: readonly string[], issue: MakeIssue): LoadIssue {
  const near = known.find((candidate) => editDistance(candidate, key) <= 2);
  return near
    ? issue(field, `unknown key "${key}" is ignored (did you mean "${near}"?)`, `rename it to "${near}"`)
    : issue(field, `unknown key "${key}" is ignored`, `remove it; the known keys here are: ${known.join(', ')}`);
}

export function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length];
}

function fileNameIssues(file: string, name: string, issue: MakeIssue): LoadIssue[] {
  const base = path.basename(file);
  const suffix = SPELL_SUFFIXES.find((s) => base.endsWith(s));
  const stem = suffix ? base.slice(0, -suffix.length) : base;
  if (suffix && stem === name) return [];
  return [
    issue(
      'name',
      `the file is named ${base} but the spell's name is "${name}"`,
      `rename the file to ${name}.spell.yaml, or set name: to match the file`,
    ),
  ];
}

function urlProblems(server: ServerSpec): string[] {
  if (server.transport === 'stdio' || URL.canParse(server.url)) return [];
  return [`server.url "${server.url}" is not a valid URL: write a full address such as https://example.com/mcp`];
}
