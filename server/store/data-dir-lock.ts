/**
 * `journal.lock`: who has the data folder's sql.js files. Created with 'wx' holding
 * `{pid, ts, token, start?, sqljs?}`: a sql.js store holds it for its whole life (`sqljs: true`), a
 * process with a real SQLite only while it imports the folder into `grimoire.db` or claims a new one.
 * A lock whose holder is gone (its pid dead, this pid without this process's token, or its pid now
 * a process of another start time: reused after a crash) is broken: renamed aside, then checked to
 * be the one judged gone. A brief holder is waited for, then refused naming the file to delete; a
 * live sql.js store is refused at once, naming it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { logger } from '../log.js';

const log = logger('store');
export const LOCK_FILE = 'journal.lock';
/** How long an import or a claim is waited for; also how old an unreadable lock (its holder died writing it) must be to be broken. */
const WAIT_MS = 10_000;
/** The tokens of the locks this process holds: a lock naming this pid with another token is an earlier process's. */
const held = new Set<string>();

interface Holder {
  content: string;
  pid: number | null;
  token: string;
  sqljs: boolean;
  /** When its process started, as processStart() gives it, if the lock says. */
  start: number | undefined;
  mtimeMs: number;
}

/**
 * Takes the lock of `dataDir` and returns its release: for the life of a sql.js store (`sqljs`),
 * else for an import or a claim. Throws at once while a live sql.js store holds it.
 */
export function lockDataDir(dataDir: string, sqljs: boolean, waitMs = WAIT_MS): () => void {
  const file = path.join(dataDir, LOCK_FILE);
  const token = randomBytes(6).toString('hex');
  const deadline = Date.now() + waitMs;
  for (;;) {
    let fd: number;
    try {
      fd = fs.openSync(file, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(file);
      if (!holder) continue;
      if (
        holder.pid === null
          ? Date.now() - holder.mtimeMs > waitMs
          : !isAlive(holder.pid, holder.token) || reused(holder)
      )
        breakLock(file, holder);
      else if (holder.sqljs) throw new Error(sqljsHolderMessage(holder.pid!, file));
      else if (Date.now() >= deadline) throw new Error(staleHolderMessage(holder.pid, file, waitMs));
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
      continue;
    }
    try {
      const start = processStart(process.pid);
      fs.writeSync(
        fd,
        JSON.stringify({
          pid: process.pid,
          ts: Date.now(),
          token,
          ...(start !== undefined ? { start } : {}),
          ...(sqljs ? { sqljs } : {}),
        }),
      );
    } catch (error) {
      fs.rmSync(file, { force: true });
      throw error;
    } finally {
      fs.closeSync(fd);
    }
    held.add(token);
    return () => {
      // Not one taken after this one was deleted.
      if (held.delete(token) && readHolder(file)?.token === token) fs.rmSync(file, { force: true });
    };
  }
}

const staleHolderMessage = (pid: number | null, file: string, waitMs: number): string =>
  `store: ${file} names process ${pid ?? '?'}, which has held it for ${waitMs / 1000} s; ` +
  `if no Grimoire is running on this folder (a crashed one's pid now used by another program), ` +
  `delete that file: rm ${JSON.stringify(file)}`;

export const sqljsHolderMessage = (pid: number, file: string): string =>
  `store: process ${pid} has this data folder open on sql.js (a runtime that loads neither node:sqlite ` +
  `nor better-sqlite3), which one process at a time can use; ` +
  `close it (if it is not Grimoire, delete ${file}), or run Grimoire on Node 22.13+ or ` +
  `with better-sqlite3`;

/** Whether a process id names a live process on this machine; this pid only with a token this process holds. */
export function isAlive(pid: number, token?: string): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return token === undefined || held.has(token);
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // it exists, someone else's
  }
}

/**
 * When process `pid` started, in clock ticks after boot (/proc/<pid>/stat, Linux; no wall clock,
 * so no clock change moves it); undefined where that is not known.
 */
export function processStart(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const start = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    return Number.isFinite(start) ? start : undefined;
  } catch {
    return undefined;
  }
}

/** The holder's pid now names another process than the one that took the lock (its holder crashed, the pid was reused). */
function reused(holder: Holder): boolean {
  if (holder.pid === null || holder.start === undefined) return false;
  const start = processStart(holder.pid);
  return start !== undefined && start !== holder.start;
}

function readHolder(file: string): Holder | null {
  try {
    const content = fs.readFileSync(file, 'utf8');
    let value: { pid?: unknown; token?: unknown; sqljs?: unknown; start?: unknown } = {};
    try {
      value = JSON.parse(content) as typeof value;
    } catch {
      // empty or partial: its holder is writing it, or died doing so
    }
    const pid = typeof value.pid === 'number' ? value.pid : null;
    const start = typeof value.start === 'number' ? value.start : undefined;
    return {
      content,
      pid,
      token: String(value.token),
      sqljs: value.sqljs === true,
      start,
      mtimeMs: fs.statSync(file).mtimeMs,
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Moves the lock aside; if it is not the one judged gone (another process took it meanwhile), puts it back. */
function breakLock(file: string, holder: Holder): void {
  const aside = `${file}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    fs.renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (fs.readFileSync(aside, 'utf8') === holder.content) {
    log.warn(`broke the lock of a process that is gone (${holder.pid === null ? 'unreadable' : `pid ${holder.pid}`})`);
  } else {
    try {
      fs.linkSync(aside, file);
    } catch {
      // another process holds a new lock now: theirs stands
    }
  }
  fs.rmSync(aside, { force: true });
}
