/**
 * An imported config entry that runs Grimoire itself: the user's Claude Desktop (or Cursor, VS Code)
 * config names Grimoire beside the servers it imports. Offered as a power, it would be a gateway
 * behind itself, listing its own tools and starting another gateway that imports the same config.
 */
import * as path from 'node:path';
import { readTextFile } from '../../shared/safe-read.js';
import type { ServerSpec } from './types.js';

/** The package name every Grimoire install carries (its package.json: CLI, extension, checkout). */
const PACKAGE_NAME = 'grimoire';
/** The gateway's entry points inside a Grimoire install: the CLI and the extension's server. */
const ENTRIES = ['out/server/cli/main.js', 'out/server/extension-main.js'];
const RUNNERS = new Set(['npx', 'pnpx', 'bunx']);
const EXECUTORS = new Set(['npm', 'pnpm', 'yarn']);

/** Why `server` runs Grimoire itself, or undefined when it runs something else. `baseDir`: where a relative path in it starts. */
export function grimoireItself(server: ServerSpec, baseDir: string): string | undefined {
  if (server.transport !== 'stdio') return undefined;
  const command = programName(server.command);
  if (command === PACKAGE_NAME) return `its command is '${PACKAGE_NAME}'`;
  const packageArg = packageRun(command, server.args);
  if (packageArg !== undefined && (packageArg === PACKAGE_NAME || packageArg.startsWith(`${PACKAGE_NAME}@`)))
    return `it runs the '${PACKAGE_NAME}' package`;
  for (const arg of [server.command, ...server.args]) {
    const entry = grimoireEntry(arg, server.cwd ? path.resolve(baseDir, server.cwd) : baseDir);
    if (entry) return `it starts ${entry}`;
  }
  return undefined;
}

/** `grimoire`, `grimoire.cmd`, `/usr/local/bin/grimoire`: the program, lowercased, without a Windows extension. */
function programName(command: string): string {
  return path
    .basename(command.replace(/\\/g, '/'))
    .toLowerCase()
    .replace(/\.(cmd|exe|ps1|bat)$/, '');
}

/** The package an `npx PKG` / `npm exec PKG` / `pnpm dlx PKG` line runs (its first argument that is not a flag). */
function packageRun(command: string, args: string[]): string | undefined {
  let rest = args;
  if (EXECUTORS.has(command)) {
    if (!['exec', 'x', 'dlx'].includes(rest[0] ?? '')) return undefined;
    rest = rest.slice(1);
  } else if (!RUNNERS.has(command)) {
    return undefined;
  }
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === '--package' || arg === '-p') return rest[i + 1]?.toLowerCase();
    if (arg.startsWith('--package=')) return arg.slice('--package='.length).toLowerCase();
    if (arg === '--') continue;
    if (!arg.startsWith('-')) return arg.toLowerCase();
  }
  return undefined;
}

/** The Grimoire entry point `arg` names (the install's package.json says so), e.g. "/opt/grimoire/out/server/cli/main.js". */
function grimoireEntry(arg: string, baseDir: string): string | undefined {
  const normalized = arg.replace(/\\/g, '/');
  const entry = ENTRIES.find((candidate) => normalized === candidate || normalized.endsWith(`/${candidate}`));
  if (!entry) return undefined;
  const file = path.resolve(baseDir, normalized);
  const root = path.resolve(file, ...entry.split('/').map(() => '..'));
  const read = readTextFile(path.join(root, 'package.json'));
  if (!read.ok) return undefined;
  try {
    return (JSON.parse(read.text) as { name?: unknown }).name === PACKAGE_NAME ? file : undefined;
  } catch {
    return undefined;
  }
}
