/**
 * The compaction lock: `compact.lock`, created with 'wx', holding `{pid, ts, token}`. Never
 * waited on. A lock older than STALE_LOCK_MS or whose pid is dead is stale and may be broken.
 */
import * as fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { logger } from '../../log.js';
import { isAlive } from './pids.js';

const log = logger('store');
export const STALE_LOCK_MS = 30_000;

export interface CompactLock {
  readonly path: string;
  readonly token: string;
}

interface LockInfo {
  pid: number;
  ts: number;
  token: string;
}

interface Holder {
  content: string;
  info: LockInfo | null;
  mtimeMs: number;
}

function parse(content: string): LockInfo | null {
  try {
    const value = JSON.parse(content) as Partial<LockInfo>;
    if (typeof value.pid === 'number' && typeof value.ts === 'number' && typeof value.token === 'string') {
      return value as LockInfo;
    }
  } catch {
    // Empty or partial: the holder died between create and write, or is writing right now.
  }
  return null;
}

function readHolder(file: string): Holder | null {
  try {
    const content = fs.readFileSync(file, 'utf8');
    return { content, info: parse(content), mtimeMs: fs.statSync(file).mtimeMs };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function isStale(holder: Holder, staleMs: number): boolean {
  if (!holder.info) return Date.now() - holder.mtimeMs > staleMs;
  return Date.now() - holder.info.ts > staleMs || !isAlive(holder.info.pid);
}

/**
 * Moves the stale lock aside and checks it is the one judged stale; if a live process took the
 * lock in between, puts that one back (link fails rather than overwrite) and reports failure.
 */
function breakLock(file: string, holder: Holder): boolean {
  const aside = `${file}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    fs.renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
  let content = '';
  try {
    content = fs.readFileSync(aside, 'utf8');
  } catch {
    // Treat as not matching.
  }
  if (content === holder.content) {
    fs.rmSync(aside, { force: true });
    const who = holder.info ? `pid ${holder.info.pid}, ${Math.round((Date.now() - holder.info.ts) / 1000)} s old` : 'unreadable';
    log.warn(`broke stale compaction lock (${who})`);
    return true;
  }
  try {
    fs.linkSync(aside, file);
  } catch {
    // Someone else holds a new lock now; theirs stands.
  }
  fs.rmSync(aside, { force: true });
  return false;
}

/** Takes the lock, or returns null when a live process holds it. */
export function tryAcquireLock(file: string, staleMs = STALE_LOCK_MS): CompactLock | null {
  for (let attempt = 0; attempt < 3; attempt++) {
    const token = randomBytes(8).toString('hex');
    let fd: number;
    try {
      fd = fs.openSync(file, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(file);
      if (!holder) continue;
      if (!isStale(holder, staleMs) || !breakLock(file, holder)) return null;
      continue;
    }
    try {
      fs.writeSync(fd, JSON.stringify({ pid: process.pid, ts: Date.now(), token }));
      fs.closeSync(fd);
    } catch (error) {
      fs.closeSync(fd);
      fs.rmSync(file, { force: true });
      throw error;
    }
    return { path: file, token };
  }
  return null;
}

/** Whether the lock file still carries our token (nobody broke it). */
export function stillHeld(lock: CompactLock): boolean {
  const holder = readHolder(lock.path);
  return holder?.info?.token === lock.token;
}

export function releaseLock(lock: CompactLock): void {
  if (stillHeld(lock)) fs.rmSync(lock.path, { force: true });
  else log.warn('compaction lock was taken over before release');
}
