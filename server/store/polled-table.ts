import type { Store } from './store-interface.js';

/** Writes made by another process (the CLI, another replica) reach a polled table within this time. */
export const POLL_MS = 500;

/**
 * A table's rows as this process last read them, by key, kept current: read again every `POLL_MS`
 * (and on `poll()`, after a write here) only when the table's version moved, or always on a store
 * that cannot tell. `onChange` runs when a read differs from the last one, comparing each row by
 * `fingerprint` (what the owner's answers depend on). A read that fails keeps the last rows.
 */
export class PolledTable<V> {
  private rows: Map<string, V>;
  private readAt?: number;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly store: Store,
    private readonly table: string,
    private readonly read: () => Map<string, V>,
    private readonly fingerprint: (row: V) => string,
    private readonly onChange: () => void,
  ) {
    // The version first: a write between the two is seen by the next poll.
    this.readAt = store.tableVersion?.(table);
    this.rows = read();
    this.timer = setInterval(() => this.poll(), POLL_MS);
    this.timer.unref();
  }

  get(key: string): V | undefined {
    return this.rows.get(key);
  }

  has(key: string): boolean {
    return this.rows.has(key);
  }

  entries(): IterableIterator<[string, V]> {
    return this.rows.entries();
  }

  /** Reads the table again when it may have changed; runs `onChange` when its rows did. */
  poll(): void {
    const version = this.store.tableVersion?.(this.table);
    if (version !== undefined && version === this.readAt) return;
    let next: Map<string, V>;
    try {
      next = this.read();
    } catch {
      return;
    }
    this.readAt = version;
    const same =
      next.size === this.rows.size &&
      [...next].every(([key, row]) => {
        const known = this.rows.get(key);
        return known !== undefined && this.fingerprint(known) === this.fingerprint(row);
      });
    this.rows = next;
    if (!same) this.onChange();
  }

  close(): void {
    clearInterval(this.timer);
  }
}
