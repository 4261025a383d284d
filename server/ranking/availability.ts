import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PowerDefinition } from '../powers/types.js';
import type { SpellExtensions } from '../powers/spell-schema.js';
import { findCommand, lookupFor, type CommandLookup } from '../upstream/command-lookup.js';

/**
 * Why a power may not be usable here: missing dependencies (a command not on PATH, an unset
 * variable) or a spell `when` condition the workspace does not meet. Such powers are flagged with
 * the reason, never silently hidden, and never auto-activated.
 */
export function availabilityFlags(
  power: PowerDefinition,
  extensions: SpellExtensions | undefined,
  context: { workspaceFolder?: string; lookup?: CommandLookup },
): string[] {
  const flags = [...power.problems];
  const server = power.server;
  if (server.transport === 'stdio' && !commandExists(server.command, context.lookup ?? lookupFor(server.env, server.cwd))) {
    flags.push(`command '${server.command}' was not found on PATH: install it, or give its full path in ${power.source.file}`);
  }
  for (const pattern of extensions?.when?.workspace_contains ?? []) {
    if (!context.workspaceFolder) {
      flags.push(`needs a workspace containing '${pattern}' (spell 'when' condition), and no workspace is open`);
    } else if (!workspaceContains(context.workspaceFolder, pattern)) {
      flags.push(`the workspace has no '${pattern}' (spell 'when' condition)`);
    }
  }
  return flags;
}

const CHECK_AGAIN_MS = 1000;
const commandCache = new Map<string, { found: boolean; stamp: string; checkedAt: number }>();

/**
 * Whether a command can be found, with the platform's rules (PATHEXT on Windows: see
 * command-lookup.ts). A result is kept only while PATH and PATHEXT are the same and the PATH
 * folders and the found file are unchanged (checked at most once a second), so installing a
 * missing command, or removing one, shows without a restart.
 */
export function commandExists(command: string, lookup: CommandLookup = lookupFor()): boolean {
  const key = [lookup.platform, command, lookup.pathEnv, lookup.pathExt ?? '', lookup.cwd ?? ''].join('\u0000');
  const cached = commandCache.get(key);
  const now = Date.now();
  if (cached && now - cached.checkedAt < CHECK_AGAIN_MS) return cached.found;
  const found = findCommand(command, lookup);
  const stamp = [found ?? '', ...[found, ...lookup.pathEnv.split(lookup.platform === 'win32' ? ';' : ':')].map(modified)].join('|');
  if (cached && cached.stamp === stamp) {
    cached.checkedAt = now;
    return cached.found;
  }
  commandCache.set(key, { found: found !== undefined, stamp, checkedAt: now });
  return found !== undefined;
}

function modified(file: string | undefined): string {
  if (!file) return '';
  try {
    return String(fs.statSync(file).mtimeMs);
  } catch {
    return '-';
  }
}

/** A path relative to the workspace root; `*` matches within one name (`*.csproj`). */
export function workspaceContains(root: string, pattern: string): boolean {
  if (!pattern.includes('*')) return fs.existsSync(path.join(root, pattern));
  const dir = path.join(root, path.dirname(pattern));
  const name = new RegExp(`^${path.basename(pattern).split('*').map(escapeRegExp).join('.*')}$`);
  try {
    return fs.readdirSync(dir).some((entry) => name.test(entry));
  } catch {
    return false;
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
