/**
 * The `events` table's one owner: power starts, stops and crashes, and the store's own notices
 * (writes dropped while PostgreSQL was unreachable). Every read goes through here; every insert is
 * built by eventOp (store/write-op.ts), which a store backend, below this layer, uses for its notices.
 */
import { eventOp } from '../store/write-op.js';
import type { Store } from '../store/store.js';

export interface EventRow {
  at: number;
  kind: string;
  power: string | null;
  detail: string | null;
}

/** The latest `limit` events, oldest first. */
export async function latestEvents(store: Pick<Store, 'read'>, limit: number): Promise<EventRow[]> {
  return (
    await store.read<EventRow>('SELECT at, kind, power, detail FROM events ORDER BY at DESC, id LIMIT ?', [limit])
  ).reverse();
}

export class EventLog {
  /** The time of this log's last event: two events in one millisecond would read back in id order, not in theirs. */
  private lastAt = 0;

  constructor(private readonly store: Store) {}

  /** Keeps one event, timed after this log's previous one; throws when the store refuses it. */
  record(kind: string, power: string | null, detail: string | null): void {
    this.lastAt = Math.max(Date.now(), this.lastAt + 1);
    this.store.write(eventOp(kind, power, detail, this.lastAt));
  }

  latest(limit: number): Promise<EventRow[]> {
    return latestEvents(this.store, limit);
  }
}
