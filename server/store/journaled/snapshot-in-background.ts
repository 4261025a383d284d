/**
 * `writeSnapshot` for a compaction that must not stall the event loop: the temp file's write and
 * fsync and the directory's fsync run on libuv's thread pool; the compare and the rename run on
 * the event loop, and only if `proceed()` still says so (the compaction was not abandoned, its
 * lock is still held).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { renameRetrying, snapshotIdentity, snapshotTemp } from './snapshot.js';

export interface BackgroundSnapshot {
  /** Asked on the event loop right before the rename. */
  proceed(): boolean;
  /** Called on the event loop right after the rename, with the new identity. */
  renamed(identity: string | null): void;
  /**
   * Called once at the end: `replaced` is false when nothing was replaced (someone else replaced
   * the snapshot first, or `proceed()` said no); after a rename, once the directory is synced.
   */
  done(error: Error | null, replaced: boolean): void;
}

export function writeSnapshotInBackground(file: string, bytes: Uint8Array, expected: string | null, steps: BackgroundSnapshot): void {
  const temp = snapshotTemp(file);
  const dropTemp = (error: Error | null) => fs.rm(temp, { force: true }, () => steps.done(error, false));
  const replace = () => {
    try {
      if (!steps.proceed() || snapshotIdentity(file) !== expected) return dropTemp(null);
      renameRetrying(temp, file);
    } catch (error) {
      return dropTemp(error as Error);
    }
    let identity: string | null = null;
    try {
      identity = snapshotIdentity(file);
    } finally {
      steps.renamed(identity);
    }
    syncDirInBackground(path.dirname(file), () => steps.done(null, true));
  };
  fs.open(temp, 'wx', (openError, fd) => {
    if (openError) return steps.done(openError, false);
    const closeThen = (error: Error | null) => fs.close(fd, () => (error ? dropTemp(error) : replace()));
    const wrote = (error: Error | null, written: number) => {
      if (error) return closeThen(error);
      if (written < bytes.length) fs.write(fd, bytes, written, bytes.length - written, null, (e, n) => wrote(e, written + n));
      else fs.fsync(fd, closeThen);
    };
    wrote(null, 0);
  });
}

/** fsync a directory off the event loop, best effort (see syncDir). */
function syncDirInBackground(dir: string, then: () => void): void {
  fs.open(dir, 'r', (error, fd) => {
    if (error) return then();
    fs.fsync(fd, () => fs.close(fd, () => then()));
  });
}
