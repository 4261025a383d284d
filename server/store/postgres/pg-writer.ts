/**
 * Pushes the store's writes to PostgreSQL: group commit (every write made while a transaction is
 * in flight goes into the next one), commit order fixed by a transaction advisory lock, each batch
 * logged in `grimoire_changes` and announced with NOTIFY, the whole transaction sent as one query
 * (one round trip) unless its values are large. A commit nobody waits on as durable does not wait
 * for PostgreSQL's WAL flush (`synchronous_commit = off`): it is in the database, so a killed
 * replica loses none of it, and only a crash of the database server itself can lose the last
 * 3 x `wal_writer_delay` of them (0.6 s by default); `durable()` waits for the flush. While the database is unreachable,
 * batches wait in memory (up to `maxQueuedOps`) and are written, in order, when it returns; writes
 * beyond the bound are dropped, counted, logged, and recorded as an event once it is back.
 */
import type { Pool, PoolClient } from 'pg';
import { eventOp } from '../write-op.js';
import { errorMessage, logger } from '../../log.js';
import type { WriteOp } from '../ops.js';
import { DATABASE_ONLY_TABLES } from './pg-reads.js';
import { inlined, MAX_INLINED_CHARS, pgWriteStatements, valueChars, type PgStatement } from './pg-sql.js';
import { CHANGES_CHANNEL, COMMIT_LOCK } from './pg-schema.js';
import { isConnectionError } from './pg-url.js';

const log = logger('store');
const MAX_OPS_PER_TRANSACTION = 2_000;
const RETRY_MIN_MS = 100;
const RETRY_MAX_MS = 2_000;

interface Waiter {
  upTo: number;
  /** `committed`: in the database, or queued while it is unreachable; `flushed`: on its disk. */
  until: 'committed' | 'flushed';
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
  private flushed = 0;
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
        log.warn(
          `store queue full (${this.maxQueuedOps} ops waiting for PostgreSQL): ` +
            `${this.overflow - this.overflowReported} write(s) dropped so far`,
        );
      }
      return;
    }
    this.queue.push({ n: ++this.accepted, ops });
    this.queuedOps += ops.length;
    this.kick();
  }

  /** Resolves when every write accepted so far is committed, or queued while the database is down. */
  committedOrQueued(): Promise<void> {
    const upTo = this.accepted;
    if (this.committed >= upTo || this.down) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ upTo, until: 'committed', resolve, reject }));
  }

  /** Resolves when every write accepted so far is on the database's disk; rejects if it was refused. */
  onDisk(): Promise<void> {
    const upTo = this.accepted;
    if (this.flushed >= upTo) return Promise.resolve();
    const settled = new Promise<void>((resolve, reject) =>
      this.waiters.push({ upTo, until: 'flushed', resolve, reject }),
    );
    this.kick();
    return settled;
  }

  /** Writes what is queued; gives up after `deadlineMs` while the database stays down. */
  async stop(deadlineMs: number): Promise<void> {
    this.stopping = true;
    const until = Date.now() + deadlineMs;
    while ((this.queue.length > 0 || this.flushed < this.committed || this.inFlight) && Date.now() < until) {
      this.kick();
      await Promise.race([this.inFlight, sleep(Math.max(1, until - Date.now()))]);
    }
    if (this.queuedOps > 0)
      log.warn(`${this.queuedOps} store write(s) not written: PostgreSQL stayed unreachable while closing`);
    for (const waiter of this.waiters.splice(0))
      waiter.reject(new Error('store closed before PostgreSQL committed these writes'));
  }

  private kick(): void {
    this.inFlight ??= this.drain().finally(() => {
      this.inFlight = null;
      if ((this.queue.length > 0 || this.flushWanted()) && !this.stopping) this.kick();
    });
  }

  private async drain(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve)); // gather the writes of this turn
    let delay = RETRY_MIN_MS;
    while (this.queue.length > 0 || this.flushWanted()) {
      try {
        if (this.queue.length > 0) await this.commitNextBatch();
        else await this.flush();
      } catch (error) {
        if (!this.down) {
          this.down = true;
          log.warn(
            `PostgreSQL unreachable: store writes are queued in memory (up to ${this.maxQueuedOps} ops) until it returns`,
          );
          this.settleQueued();
        }
        if (this.stopping) return;
        await sleep(delay);
        delay = Math.min(RETRY_MAX_MS, delay * 2);
        continue;
      }
      delay = RETRY_MIN_MS;
      if (this.down) {
        this.down = false;
        log.info('PostgreSQL reachable again: queued store writes are being written');
      }
    }
  }

  /** Commits the oldest queued writes (up to MAX_OPS_PER_TRANSACTION); throws only when the database is unreachable. */
  private async commitNextBatch(): Promise<void> {
    this.addOverflowEvent();
    let count = 0;
    let opsCount = 0;
    while (
      count < this.queue.length &&
      (count === 0 || opsCount + this.queue[count].ops.length <= MAX_OPS_PER_TRANSACTION)
    ) {
      opsCount += this.queue[count].ops.length;
      count += 1;
    }
    const last = this.queue[count - 1].n;
    const synchronous = this.stopping || this.waiters.some((waiter) => waiter.until === 'flushed');
    try {
      await this.commit(
        this.queue.slice(0, count).flatMap((entry) => entry.ops),
        synchronous,
      );
    } catch (error) {
      if (isConnectionError(error)) throw error;
      log.warn(`PostgreSQL rejected ${opsCount} store write(s), dropped: ${errorMessage(error)}`);
      this.dequeue(count, opsCount);
      this.advance(last, false, new Error(`PostgreSQL rejected the writes: ${errorMessage(error)}`));
      return;
    }
    this.dequeue(count, opsCount);
    this.advance(last, synchronous);
  }

  private dequeue(count: number, opsCount: number): void {
    this.queue.splice(0, count);
    this.queuedOps -= opsCount;
  }

  /** A durable() (or closing) waits on writes committed without waiting for the WAL flush. */
  private flushWanted(): boolean {
    if (this.stopping) return this.flushed < this.committed;
    return this.waiters.some(
      (waiter) => waiter.until === 'flushed' && waiter.upTo <= this.committed && waiter.upTo > this.flushed,
    );
  }

  /**
   * Commits a transaction that waits for PostgreSQL's WAL flush, which covers every commit before
   * it. It writes a row (`meta.last_flush`): a transaction that writes nothing commits without a flush.
   */
  private async flush(): Promise<void> {
    const upTo = this.committed;
    try {
      await this.run(
        inlined({
          text: "INSERT INTO meta (key, value) VALUES ('last_flush', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
          values: [this.origin],
        }),
      );
    } catch (error) {
      if (isConnectionError(error)) throw error;
      log.warn(`PostgreSQL refused the write that flushes its WAL: ${errorMessage(error)}`);
      this.advance(upTo, false, new Error(`PostgreSQL refused the flush: ${errorMessage(error)}`));
      return;
    }
    this.advance(upTo, true);
  }

  private async commit(ops: WriteOp[], synchronous: boolean): Promise<void> {
    // Other replicas apply what the change log carries to their read models, which hold no
    // database-only table: a batch of only those (a call's record) needs no log row, no NOTIFY,
    // and no commit-order lock.
    const logged = ops.filter((op) => !DATABASE_ONLY_TABLES.has(op.table));
    const statements = [...pgWriteStatements(ops)];
    if (logged.length > 0) {
      statements.push({
        text:
          'WITH logged AS (INSERT INTO grimoire_changes (origin, at, ops) VALUES ($1, $2, ' +
          "$3) RETURNING seq) SELECT pg_notify($4, seq::text || ' ' || $1) FROM logged",
        values: [this.origin, Date.now(), JSON.stringify(logged), CHANGES_CHANNEL],
      });
    }
    const begin = [
      'BEGIN',
      ...(synchronous ? [] : ['SET LOCAL synchronous_commit = off']),
      ...(logged.length > 0 ? [`SELECT pg_advisory_xact_lock(${COMMIT_LOCK})`] : []),
    ].join('; ');
    if (valueChars(statements) <= MAX_INLINED_CHARS)
      await this.run([begin, ...statements.map(inlined), 'COMMIT'].join(';\n'));
    else await this.run(begin, statements, 'COMMIT');
    this.transactions += 1;
  }

  /** Runs `head`, then each statement, then `tail`, on one pooled connection; rolls back what they opened on failure. */
  private async run(head: string, statements: PgStatement[] = [], tail?: string): Promise<void> {
    let client: PoolClient | undefined;
    try {
      client = await this.pool.connect();
      // A connection cut between two statements is reported as an event, not only by the next query.
      client.on('error', ignore);
      await client.query(head);
      for (const statement of statements) await client.query(statement.text, statement.values);
      if (tail) await client.query(tail);
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
    const event = eventOp(
      'store-overflow',
      null,
      `${lost} store write(s) dropped: the in-memory queue (${this.maxQueuedOps} ops) was full while PostgreSQL was unreachable`,
    );
    this.queue.push({ n: ++this.accepted, ops: [event] });
    this.queuedOps += 1;
  }

  /** Writes up to `upTo` are committed (and flushed when `flushed`), or were refused with `error`. */
  private advance(upTo: number, flushed: boolean, error?: Error): void {
    this.committed = Math.max(this.committed, upTo);
    if (flushed || error) this.flushed = Math.max(this.flushed, upTo);
    this.waiters = this.waiters.filter((waiter) => {
      if (waiter.upTo > (waiter.until === 'committed' ? this.committed : this.flushed)) return true;
      if (error) waiter.reject(error);
      else waiter.resolve();
      return false;
    });
  }

  private settleQueued(): void {
    this.waiters = this.waiters.filter((waiter) => {
      if (waiter.until === 'flushed') return true;
      waiter.resolve();
      return false;
    });
  }
}

const ignore = (): void => undefined;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
