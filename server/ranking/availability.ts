import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PowerDefinition } from '../powers/types.js';
import type { SpellExtensions } from '../powers/spell-schema.js';
import { commandExists, lookupFor, type CommandLookup } from '../util/command-lookup.js';

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
  if (
    server.transport === 'stdio' &&
    !commandExists(server.command, context.lookup ?? lookupFor(server.env, server.cwd))
  ) {
    flags.push(
      `command '${server.command}' was not found on PATH: install it, or give its full path in ${power.source.file}`,
    );
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
