/**
 * Follows the other replicas' writes: LISTEN on the change channel (a notification carries the
 * new sequence number and the replica that committed it), then fetch the change-log rows past the last one seen and hand their ops
 * to the read model. Polls once a second as well, so a missed notification (a reconnect) costs at
 * most a second. After a long outage (the log may have been pruned past us) it asks for a reload.
 */
import pg from 'pg';
import { errorMessage, logger } from '../../log.js';
import type { WriteOp } from '../ops.js';
import { CHANGES_CHANNEL } from './pg-schema.js';

const log = logger('store');
const POLL_MS = 1_000;
const FETCH_ROWS = 500;
/** Change-log rows older than this are pruned; a follower out of touch for half of it reloads. */
export const CHANGE_LOG_KEEP_MS = 10 * 60_000;

export interface FollowerHooks {
  /** Ops another replica committed, in commit order. */
  apply(ops: WriteOp[]): void;
  /** Rebuild the read model from the tables; returns the change sequence it reflects. */
  reload(): Promise<number>;
}

export class PgFollower {
  private listener: pg.Client | null = null;
  private fetching: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private lastContact = Date.now();
  private stopped = false;
  private reconnecting = false;
  /** Batches applied from other replicas (for tests and benchmarks). */
  applied = 0;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly pool: pg.Pool,
    private readonly origin: string,
    private seq: number,
    private readonly hooks: FollowerHooks,
  ) {}

  get lastSeq(): number {
    return this.seq;
  }

  start(): void {
    void this.listen();
    this.timer = setInterval(() => this.fetchSoon(), POLL_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.fetching?.catch(() => undefined);
    const listener = this.listener;
    this.listener = null;
    await listener?.end().catch(() => undefined);
  }

  /** Fetches now (single flight; a request during a fetch runs one more). */
  fetchSoon(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.fetching) {
      this.again = true;
      return this.fetching;
    }
    this.fetching = this.fetch()
      .catch((error) => log.debug(`change log not read: ${errorMessage(error)}`))
      .finally(() => {
        this.fetching = null;
        if (this.again) {
          this.again = false;
          void this.fetchSoon();
        }
      });
    return this.fetching;
  }

  private async listen(): Promise<void> {
    if (this.stopped || this.reconnecting) return;
    this.reconnecting = true;
    let delay = 200;
    while (!this.stopped) {
      const client = new pg.Client(this.config);
      client.on('error', () => undefined); // 'end' follows and reconnects
      try {
        await client.connect();
        await client.query(`LISTEN ${CHANGES_CHANNEL}`);
      } catch (error) {
        await client.end().catch(() => undefined);
        log.debug(`LISTEN failed, retrying: ${errorMessage(error)}`);
        await new Promise((resolve) => setTimeout(resolve, delay).unref());
        delay = Math.min(5_000, delay * 2);
        continue;
      }
      if (this.stopped) {
        await client.end().catch(() => undefined);
        break;
      }
      client.on('notification', (message) => this.notified(message.payload));
      client.once('end', () => {
        if (this.listener !== client) return;
        this.listener = null;
        void this.listen();
      });
      this.listener = client;
      void this.fetchSoon(); // what was committed while not listening
      break;
    }
    this.reconnecting = false;
  }

  /**
   * A notification's payload is `<seq> <origin>`: this replica's own commit right after the last
   * sequence seen has nothing to apply, so it only moves the sequence on (no query per own write).
   */
  private notified(payload: string | undefined): void {
    const space = payload?.indexOf(' ') ?? -1;
    const seq = space > 0 ? Number(payload!.slice(0, space)) : NaN;
    if (!this.fetching && seq === this.seq + 1 && payload!.slice(space + 1) === this.origin) {
      this.seq = seq;
      this.lastContact = Date.now();
      return;
    }
    void this.fetchSoon();
  }

  private async fetch(): Promise<void> {
    if (Date.now() - this.lastContact > CHANGE_LOG_KEEP_MS / 2) {
      this.seq = await this.hooks.reload();
      this.lastContact = Date.now();
      log.info('store reloaded from PostgreSQL after a long disconnection');
    }
    for (;;) {
      const result = await this.pool.query<{ seq: string; origin: string; ops: string }>(
        'SELECT seq, origin, ops FROM grimoire_changes WHERE seq > $1 ORDER BY seq LIMIT $2',
        [this.seq, FETCH_ROWS],
      );
      this.lastContact = Date.now();
      for (const row of result.rows) {
        if (row.origin !== this.origin) {
          this.hooks.apply(JSON.parse(row.ops) as WriteOp[]);
          this.applied += 1;
        }
        this.seq = Number(row.seq);
      }
      if (result.rows.length < FETCH_ROWS) return;
    }
  }
}
