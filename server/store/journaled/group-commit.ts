/**
 * Group commit: writes land in the journal at once (a killed process loses none of them), and one
 * fdatasync, off the event loop, makes every write since the previous one survive power loss. It
 * runs `delayMs` after the first unsynced write, or at once when `maxPending` writes wait; one
 * at a time. `durable()` resolves when the writes made before it are synced.
 */
import { errorMessage, logger } from '../../log.js';

const log = logger('store');

export interface Syncable {
  sync(done: (error: Error | null) => void): void;
  syncNow(): void;
}

interface Waiter {
  upTo: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

export class GroupCommit {
  private written = 0;
  private synced = 0;
  private inFlight = false;
  private timer: NodeJS.Timeout | undefined;
  private waiters: Waiter[] = [];
  private closed = false;
  /** fdatasync calls made, for the benchmarks and tests. */
  syncs = 0;

  constructor(
    private readonly target: () => Syncable,
    private readonly enabled: boolean,
    private readonly delayMs = 20,
    private readonly maxPending = 256,
  ) {}

  /** One more write is in the journal, not yet synced. */
  noteWrite(): void {
    this.written += 1;
    if (!this.enabled) {
      this.synced = this.written;
      return;
    }
    if (this.inFlight) return;
    if (this.written - this.synced >= this.maxPending) this.schedule(0);
    else this.schedule(this.delayMs);
  }

  durable(): Promise<void> {
    if (this.synced >= this.written) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiters.push({ upTo: this.written, resolve, reject });
      if (!this.inFlight) this.schedule(0);
    });
  }

  /** Syncs now, on this thread (before a journal is closed or replaced). */
  flushNow(): void {
    this.clearTimer();
    if (this.synced >= this.written) return;
    const upTo = this.written;
    try {
      this.syncs += 1;
      this.target().syncNow();
      this.settle(upTo, null);
    } catch (error) {
      this.settle(upTo, error as Error);
      throw error;
    }
  }

  /** Syncs what is left; later callbacks of a sync still in flight are ignored. */
  close(): void {
    try {
      this.flushNow();
    } finally {
      this.closed = true;
    }
  }

  private schedule(delayMs: number): void {
    if (this.closed) return;
    if (this.timer && delayMs > 0) return;
    this.clearTimer();
    this.timer = setTimeout(() => this.run(), delayMs);
    // Unsynced writes alone do not keep a process alive (its journal bytes survive it); a durable() waiter does.
    if (this.waiters.length === 0) this.timer.unref();
  }

  private run(): void {
    this.timer = undefined;
    if (this.inFlight || this.synced >= this.written) return;
    const upTo = this.written;
    this.inFlight = true;
    this.syncs += 1;
    this.target().sync((error) => {
      this.inFlight = false;
      if (this.closed) return; // close() synced everything on its own
      this.settle(upTo, error);
      if (this.written > this.synced) this.schedule(this.waiters.length ? 0 : this.delayMs);
    });
  }

  private settle(upTo: number, error: Error | null): void {
    if (error) log.warn(`journal sync failed: ${errorMessage(error)}`);
    else this.synced = Math.max(this.synced, upTo);
    const done = this.waiters.filter((w) => w.upTo <= upTo);
    this.waiters = this.waiters.filter((w) => w.upTo > upTo);
    for (const waiter of done) {
      if (error) waiter.reject(error);
      else waiter.resolve();
    }
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
