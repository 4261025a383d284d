import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PowerDefinition } from '../powers/types.js';
import type { SpellExtensions } from '../powers/spell-schema.js';

/**
 * Why a power may not be usable here: missing dependencies (a command not on PATH, an unset
 * variable) or a spell `when` condition the workspace does not meet. Such powers are flagged with
 * the reason, never silently hidden, and never auto-activated.
 */
export function availabilityFlags(
  power: PowerDefinition,
  extensions: SpellExtensions | undefined,
  context: { workspaceFolder?: string; pathEnv?: string },
): string[] {
  const flags = [...power.problems];
  if (power.server.transport === 'stdio' && !commandExists(power.server.command, context.pathEnv ?? process.env.PATH ?? '')) {
    flags.push(`command '${power.server.command}' was not found on PATH: install it, or give its full path in ${power.source.file}`);
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

const commandCache = new Set<string>();

/** Found commands are remembered; a missing one is looked for again (the user may install it meanwhile). */
export function commandExists(command: string, pathEnv: string): boolean {
  const key = `${command}\u0000${pathEnv}`;
  if (commandCache.has(key)) return true;
  const found = path.isAbsolute(command) || command.includes('/') ? isExecutable(command) : pathEnv.split(path.delimiter).some((dir) => dir && isExecutable(path.join(dir, command)));
  if (found) commandCache.add(key);
  return found;
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
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
