/**
 * The snapshot file `grimoire.sqlite`: read with its identity (inode, size, times), written
 * atomically (temp file + fsync + rename, then directory fsync) and only over the version the
 * writer last saw, so two compactors can never replace each other's work unnoticed.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { syncDir } from './journal.js';
import { isAlive } from './pids.js';

export interface Snapshot {
  bytes: Uint8Array | null;
  /** null when there is no snapshot file. */
  identity: string | null;
}

const identityOf = (s: fs.BigIntStats): string => `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;

export function snapshotIdentity(file: string): string | null {
  try {
    return identityOf(fs.statSync(file, { bigint: true }));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

export function readSnapshot(file: string): Snapshot {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { bytes: null, identity: null };
    throw error;
  }
  try {
    const identity = identityOf(fs.fstatSync(fd, { bigint: true }));
    return { bytes: fs.readFileSync(fd), identity };
  } finally {
    fs.closeSync(fd);
  }
}

const TEMP_MARK = '.tmp-';

/** A new temp file name next to the snapshot, marked with this pid (see removeStaleTemps). */
export const snapshotTemp = (file: string): string => `${file}${TEMP_MARK}${process.pid}-${randomBytes(4).toString('hex')}`;

/**
 * Replaces the snapshot with `bytes` if its identity is still `expected`. Returns the new
 * identity, or null (nothing replaced) when someone else replaced it first.
 */
export function writeSnapshot(file: string, bytes: Uint8Array, expected: string | null): string | null {
  const temp = snapshotTemp(file);
  const fd = fs.openSync(temp, 'wx');
  try {
    let written = 0;
    while (written < bytes.length) written += fs.writeSync(fd, bytes, written, bytes.length - written);
    fs.fsyncSync(fd);
  } catch (error) {
    fs.closeSync(fd);
    fs.rmSync(temp, { force: true });
    throw error;
  }
  fs.closeSync(fd);
  if (snapshotIdentity(file) !== expected) {
    fs.rmSync(temp, { force: true });
    return null;
  }
  renameRetrying(temp, file);
  syncDir(path.dirname(file));
  return snapshotIdentity(file);
}

/** Windows refuses to rename over a file another process has open for a moment: retry briefly. */
export function renameRetrying(from: string, to: string): void {
  for (let attempt = 0; ; attempt++) {
    try {
      fs.renameSync(from, to);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (attempt >= 10 || (code !== 'EPERM' && code !== 'EACCES' && code !== 'EBUSY')) {
        fs.rmSync(from, { force: true });
        throw error;
      }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
}

/** Renames a corrupt snapshot aside (if it is still the one read). Returns the new name. */
export function moveCorrupt(file: string, expected: string): string | null {
  if (snapshotIdentity(file) !== expected) return null;
  const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  fs.renameSync(file, aside);
  return aside;
}

/** Removes temp files left by compactors that died mid-write. */
export function removeStaleTemps(file: string): void {
  const dir = path.dirname(file);
  const prefix = path.basename(file) + TEMP_MARK;
  for (const name of fs.readdirSync(dir)) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length).split('-')[0]);
    if (!isAlive(pid)) fs.rmSync(path.join(dir, name), { force: true });
  }
}
