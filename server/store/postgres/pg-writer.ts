/**
 * Pushes the store's writes to PostgreSQL: group commit (every write made while a transaction is
 * in flight goes into the next one), commit order fixed by a transaction advisory lock, each batch
 * logged in `grimoire_changes` and announced with NOTIFY. While the database is unreachable,
 * batches wait in memory (up to `maxQueuedOps`) and are written, in order, when it returns; writes
 * beyond the bound are dropped, counted, logged, and recorded as an event once it is back.
 */
import type { Pool, PoolClient } from 'pg';
import { eventOp } from '../event-op.js';
import { errorMessage, logger } from '../../log.js';
import type { WriteOp } from '../ops.js';
import { pgWriteStatements } from './pg-sql.js';
import { CHANGES_CHANNEL, COMMIT_LOCK } from './pg-schema.js';
import { isConnectionError } from './pg-url.js';

const log = logger('store');
const MAX_OPS_PER_TRANSACTION = 2_000;
const RETRY_MIN_MS = 100;
const RETRY_MAX_MS = 2_000;

interface Waiter {
  upTo: number;
  /** Also settle when the database is unreachable (the writes are queued). */
  orQueued: boolean;
  resolve: () => void;
  reject: (error: Error) => void;
}

export interface WriterStatus {
  /** The last transaction failed because the database could not be reached. */
  down: boolean;
  queuedOps: number;
  /** Writes dropped because the queue was full while the database was unreachable. */
  overflow: number;
  transactions: number;
}

export class PgWriter {
  private queue: { n: number; ops: WriteOp[] }[] = [];
  private queuedOps = 0;
  private accepted = 0;
  private committed = 0;
  private inFlight: Promise<void> | null = null;
  private waiters: Waiter[] = [];
  private down = false;
  private overflow = 0;
  private overflowReported = 0;
  private transactions = 0;
  private stopping = false;

  constructor(
    private readonly pool: Pool,
    private readonly origin: string,
    private readonly maxQueuedOps: number,
  ) {}

  status(): WriterStatus {
    return { down: this.down, queuedOps: this.queuedOps, overflow: this.overflow, transactions: this.transactions };
  }

  /** Ops not yet committed, in order (re-applied to a reloaded read model). */
  pendingOps(): WriteOp[] {
    return this.queue.flatMap((entry) => entry.ops);
  }

  push(ops: WriteOp[]): void {
    if (this.queuedOps + ops.length > this.maxQueuedOps) {
      this.overflow += ops.length;
      if (this.overflow - ops.length === this.overflowReported || this.overflow % 1000 < ops.length) {
        log.warn(`store queue full (${this.maxQueuedOps} ops waiting for PostgreSQL): ${this.overflow - this.overflowReported} write(s) dropped so far`);
      }
      return;
    }
    this.queue.push({ n: ++this.accepted, ops });
    this.queuedOps += ops.length;
    this.kick();
  }

  /** Resolves when every write accepted so far is committed (or, with `orQueued`, queued while the database is down). */
  settled(orQueued: boolean): Promise<void> {
    const upTo = this.accepted;
    if (this.committed >= upTo || (orQueued && this.down)) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ upTo, orQueued, resolve, reject }));
  }

  /** Writes what is queued; gives up after `deadlineMs` while the database stays down. */
  async stop(deadlineMs: number): Promise<void> {
    this.stopping = true;
    const until = Date.now() + deadlineMs;
    while ((this.queue.length > 0 || this.inFlight) && Date.now() < until) {
      this.kick();
      await Promise.race([this.inFlight, sleep(Math.max(1, until - Date.now()))]);
    }
    if (this.queuedOps > 0) log.warn(`${this.queuedOps} store write(s) not written: PostgreSQL stayed unreachable while closing`);
    for (const waiter of this.waiters.splice(0)) waiter.reject(new Error('store closed before PostgreSQL committed these writes'));
  }

  private kick(): void {
    this.inFlight ??= this.drain().finally(() => {
      this.inFlight = null;
      if (this.queue.length > 0 && !this.stopping) this.kick();
    });
  }

  private async drain(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve)); // gather the writes of this turn
    let delay = RETRY_MIN_MS;
    while (this.queue.length > 0) {
      this.addOverflowEvent();
      let count = 0;
      let opsCount = 0;
      while (count < this.queue.length && (count === 0 || opsCount + this.queue[count].ops.length <= MAX_OPS_PER_TRANSACTION)) {
        opsCount += this.queue[count].ops.length;
        count += 1;
      }
      const batch = this.queue.slice(0, count);
      try {
        await this.commit(batch.flatMap((entry) => entry.ops));
      } catch (error) {
        if (!isConnectionError(error)) {
          log.warn(`PostgreSQL rejected ${opsCount} store write(s), dropped: ${errorMessage(error)}`);
          this.queue.splice(0, count);
          this.queuedOps -= opsCount;
          this.advance(batch[count - 1].n, new Error(`PostgreSQL rejected the writes: ${errorMessage(error)}`));
          continue;
        }
        if (!this.down) {
          this.down = true;
          log.warn(`PostgreSQL unreachable: store writes are queued in memory (up to ${this.maxQueuedOps} ops) until it returns`);
          this.settleQueued();
        }
        if (this.stopping) return;
        await sleep(delay);
        delay = Math.min(RETRY_MAX_MS, delay * 2);
        continue;
      }
      delay = RETRY_MIN_MS;
      this.queue.splice(0, count);
      this.queuedOps -= opsCount;
      if (this.down) {
        this.down = false;
        log.info('PostgreSQL reachable again: queued store writes are being written');
      }
      this.advance(batch[count - 1].n);
    }
  }

  private async commit(ops: WriteOp[]): Promise<void> {
    let client: PoolClient | undefined;
    try {
      client = await this.pool.connect();
      // A connection cut between two statements is reported as an event, not only by the next query.
      client.on('error', ignore);
      await client.query(`BEGIN; SELECT pg_advisory_xact_lock(${COMMIT_LOCK})`);
      for (const statement of pgWriteStatements(ops)) await client.query(statement.text, statement.values);
      await client.query(
        'WITH logged AS (INSERT INTO grimoire_changes (origin, at, ops) VALUES ($1, $2, $3) RETURNING seq) SELECT pg_notify($4, seq::text) FROM logged',
        [this.origin, Date.now(), JSON.stringify(ops), CHANGES_CHANNEL],
      );
      await client.query('COMMIT');
      this.transactions += 1;
      client.off('error', ignore);
      client.release();
    } catch (error) {
      if (client) {
        await client.query('ROLLBACK').catch(() => undefined);
        client.off('error', ignore);
        client.release(true);
      }
      throw error;
    }
  }

  /** Once the database is back, the writes dropped meanwhile become an event (and are no longer silent). */
  private addOverflowEvent(): void {
    if (this.down || this.overflow === this.overflowReported) return;
    const lost = this.overflow - this.overflowReported;
    this.overflowReported = this.overflow;
    const event = eventOp('store-overflow', null, `${lost} store write(s) dropped: the in-memory queue (${this.maxQueuedOps} ops) was full while PostgreSQL was unreachable`);
    this.queue.push({ n: ++this.accepted, ops: [event] });
    this.queuedOps += 1;
  }

  private advance(upTo: number, error?: Error): void {
    this.committed = Math.max(this.committed, upTo);
    this.waiters = this.waiters.filter((waiter) => {
      if (waiter.upTo > this.committed) return true;
      if (error) waiter.reject(error);
      else waiter.resolve();
      return false;
    });
  }

  private settleQueued(): void {
    this.waiters = this.waiters.filter((waiter) => {
      if (!waiter.orQueued) return true;
      waiter.resolve();
      return false;
    });
  }
}

const ignore = (): void => undefined;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
