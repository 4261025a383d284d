import * as fs from 'node:fs';
import * as path from 'node:path';

/** Where and how a command is looked up: the platform's rules, the child's PATH and PATHEXT. */
export interface CommandLookup {
  platform: NodeJS.Platform;
  pathEnv: string;
  /** Windows only; defaults to what cmd.exe uses when PATHEXT is unset. */
  pathExt?: string;
  /** Windows looks in the current folder first. */
  cwd?: string;
  /** Whether a file is there and may run; POSIX needs the executable bit, Windows only the file. */
  isRunnable?: (file: string, platform: NodeJS.Platform) => boolean;
}

/** What cross-spawn's `which` uses when PATHEXT is unset. */
const DEFAULT_PATHEXT = '.EXE;.CMD;.BAT;.COM';

export function isRunnableFile(file: string, platform: NodeJS.Platform): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    if (platform !== 'win32') fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The file a command runs, found the way cross-spawn (which the SDK and this gateway spawn with)
 * and a shell find it: a name with a path separator is taken as a path; otherwise each PATH
 * folder is tried in order. On Windows the folders are separated by ';', the current folder comes
 * first, and each PATHEXT extension is tried (`npx` finds `npx.cmd`), the bare name only when it
 * already ends in one of them (Windows file names ignore case).
 */
export function findCommand(command: string, lookup: CommandLookup): string | undefined {
  const windows = lookup.platform === 'win32';
  const paths = windows ? path.win32 : path.posix;
  const runnable = (file: string) => (lookup.isRunnable ?? isRunnableFile)(file, lookup.platform);
  const extensions = windows ? (lookup.pathExt || DEFAULT_PATHEXT).split(';').filter(Boolean) : [''];
  const candidates = (base: string): string[] => {
    if (!windows) return [base];
    const hasKnownExt = extensions.some((ext) => base.toLowerCase().endsWith(ext.toLowerCase()));
    return [...(hasKnownExt ? [base] : []), ...extensions.map((ext) => base + ext)];
  };
  const hasSeparator = windows ? /[\\/]/.test(command) : command.includes('/');
  if (hasSeparator || paths.isAbsolute(command)) {
    const base = paths.normalize(lookup.cwd && !paths.isAbsolute(command) ? paths.join(lookup.cwd, command) : command);
    return candidates(base).find(runnable);
  }
  const dirs = lookup.pathEnv
    .split(windows ? ';' : ':')
    .map((dir) => dir.replace(/^"(.*)"$/, '$1'))
    .filter(Boolean);
  if (windows && lookup.cwd) dirs.unshift(lookup.cwd);
  for (const dir of dirs) {
    const found = candidates(paths.join(dir, command)).find(runnable);
    if (found) return found;
  }
  return undefined;
}

/** The lookup the gateway's own platform and environment give, with a child's env on top. */
export function lookupFor(env: Record<string, string | undefined> = {}, cwd?: string): CommandLookup {
  const pick = (name: string) =>
    env[name] ??
    Object.entries(env).find(([key]) => process.platform === 'win32' && key.toUpperCase() === name)?.[1] ??
    process.env[name];
  return {
    platform: process.platform,
    pathEnv: pick('PATH') ?? '',
    pathExt: pick('PATHEXT'),
    cwd: cwd ?? process.cwd(),
  };
}

const CHECK_AGAIN_MS = 1000;
const commandCache = new Map<string, { found: boolean; stamp: string; checkedAt: number }>();

/**
 * Whether a command can be found, with the platform's rules (PATHEXT on Windows: see
 * findCommand). A result is kept only while PATH and PATHEXT are the same and the PATH
 * folders and the found file are unchanged (checked at most once a second), so installing a
 * missing command, or removing one, shows without a restart.
 */
export function commandExists(command: string, lookup: CommandLookup = lookupFor()): boolean {
  const key = [lookup.platform, command, lookup.pathEnv, lookup.pathExt ?? '', lookup.cwd ?? ''].join('\u0000');
  const cached = commandCache.get(key);
  const now = Date.now();
  if (cached && now - cached.checkedAt < CHECK_AGAIN_MS) return cached.found;
  const found = findCommand(command, lookup);
  const stamp = [
    found ?? '',
    ...[found, ...lookup.pathEnv.split(lookup.platform === 'win32' ? ';' : ':')].map(modified),
  ].join('|');
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
