/**
 * `journal.lock`: who writes the sql.js store's journal now. Created with 'wx' holding
 * `{pid, ts, token}`, held only for a write (or a load, a compaction, an import) and removed after
 * it. Another process waits for it; a lock whose pid is dead or older than STALE_LOCK_MS is broken
 * (renamed aside, then checked to be the one judged stale).
 */
import * as fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { logger } from '../log.js';
import { isAlive } from './pids.js';

const log = logger('store');
export const LOCK_FILE = 'journal.lock';
export const STALE_LOCK_MS = 30_000;
/** How long a write waits for another process's. */
export const LOCK_WAIT_MS = 5_000;

interface Holder {
  content: string;
  pid: number | null;
  ts: number;
}

function readHolder(file: string): Holder | null {
  try {
    const content = fs.readFileSync(file, 'utf8');
    let value: { pid?: unknown; ts?: unknown } = {};
    try {
      value = JSON.parse(content) as typeof value;
    } catch {
      // empty or partial: its holder died between create and write, or is writing right now
    }
    const pid = typeof value.pid === 'number' ? value.pid : null;
    return { content, pid, ts: typeof value.ts === 'number' && pid !== null ? value.ts : fs.statSync(file).mtimeMs };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

const isStale = (holder: Holder, staleMs: number): boolean => Date.now() - holder.ts > staleMs || (holder.pid !== null && !isAlive(holder.pid));

/** Moves the stale lock aside; if it is not the one judged stale (a live process took it meanwhile), puts it back. */
function breakLock(file: string, holder: Holder): void {
  const aside = `${file}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    fs.renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  let content = '';
  try {
    content = fs.readFileSync(aside, 'utf8');
  } catch {
    // treat as not matching
  }
  if (content === holder.content) {
    log.warn(`broke a stale store lock (${holder.pid === null ? 'unreadable' : `pid ${holder.pid}`}, ${Math.round((Date.now() - holder.ts) / 1000)} s old)`);
  } else {
    try {
      fs.linkSync(aside, file);
    } catch {
      // someone else holds a new lock now: theirs stands
    }
  }
  fs.rmSync(aside, { force: true });
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Runs `use` holding the lock; waits up to `waitMs` for a live holder, then throws naming it. */
export function withLock<T>(file: string, use: () => T, waitMs = LOCK_WAIT_MS, staleMs = STALE_LOCK_MS): T {
  const deadline = Date.now() + waitMs;
  for (let wait = 1; ; wait = Math.min(wait * 2, 20)) {
    let fd: number;
    try {
      fd = fs.openSync(file, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(file);
      if (holder && isStale(holder, staleMs)) breakLock(file, holder);
      else if (Date.now() >= deadline) throw new Error(`store: process ${holder?.pid ?? '?'} has held ${file} for ${waitMs / 1000} s`);
      else pause(wait);
      continue;
    }
    try {
      fs.writeSync(fd, JSON.stringify({ pid: process.pid, ts: Date.now(), token: randomBytes(6).toString('hex') }));
      fs.closeSync(fd);
    } catch (error) {
      fs.closeSync(fd);
      fs.rmSync(file, { force: true });
      throw error;
    }
    try {
      return use();
    } finally {
      fs.rmSync(file, { force: true });
    }
  }
}
