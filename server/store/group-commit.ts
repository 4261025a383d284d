/**
 * Group commit for an embedded store: a write is in the file (in the kernel) when it returns, so a
 * killed process loses none; one fdatasync, off the event loop, makes the writes of a moment
 * survive power loss. It runs SYNC_AFTER_MS after the first write it does not cover yet, one at a
 * time; `durable()` waits for a sync that covers every write made before it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { errorMessage, logger } from '../log.js';

const log = logger('store');
const SYNC_AFTER_MS = 20;

export class GroupCommit {
  private dirty = false;
  private syncing: Promise<void> | undefined;
  private again: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** fdatasync calls made (for benchmarks and tests). */
  syncs = 0;

  /** `file`: what to sync (it may be gone: then what it held is synced elsewhere); `enabled` false: `durable()` resolves at once. */
  constructor(
    private readonly file: () => string,
    private readonly enabled: boolean,
  ) {}

  /** A write is in the file, not synced yet. */
  noteWrite(): void {
    if (!this.enabled) return;
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.durable().catch((error: unknown) =>
        log.warn(`could not sync ${path.basename(this.file())}: ${errorMessage(error)}`),
      );
    }, SYNC_AFTER_MS);
    this.timer.unref();
  }

  durable(): Promise<void> {
    if (!this.dirty) return this.syncing ?? Promise.resolve();
    if (!this.syncing) return (this.syncing = this.sync());
    // The sync in flight may have started before this call's writes: the next one covers them.
    return (this.again ??= this.syncing
      .catch(() => undefined)
      .then(() => {
        this.again = undefined;
        return (this.syncing = this.sync());
      }));
  }

  /** Syncs what is left, on this thread. */
  close(): void {
    clearTimeout(this.timer);
    if (!this.dirty) return;
    try {
      const fd = fs.openSync(this.file(), 'r+');
      try {
        this.syncs += 1;
        fs.fdatasyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        log.warn(`could not sync ${path.basename(this.file())}: ${errorMessage(error)}`);
    }
  }

  private async sync(): Promise<void> {
    this.dirty = false;
    try {
      const handle = await fs.promises.open(this.file(), 'r+').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      });
      if (!handle) return;
      try {
        this.syncs += 1;
        await handle.datasync();
      } finally {
        await handle.close();
      }
    } catch (error) {
      this.dirty = true;
      throw error;
    } finally {
      this.syncing = undefined;
    }
  }
}
