/**
 * The store on PostgreSQL, for a team gateway with several replicas. `read()` asks the database
 * itself. `query()` is synchronous, PostgreSQL is not: for it this store keeps a read model
 * (in-memory SQLite, the same migrations) of the small, hot tables (pins, weights, catalog, users...)
 * loaded from PostgreSQL at open, applies its own writes to it at once, and pushes every write to
 * PostgreSQL in group-committed transactions (pg-writer.ts); other replicas' writes arrive through
 * LISTEN/NOTIFY and the change log (pg-follower.ts). The tables that grow with use
 * (pg-reads.ts) are not in the model: they are read with `read()`. See server/store/README.md.
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import pg from 'pg';
import { errorMessage, logger } from '../../log.js';
import { StoreDatabase } from '../database.js';
import { loadSqlEngine, type SqlEngine } from '../sql-engine.js';
import { migrate, TABLE_KEYS } from '../migrations.js';
import { applyOp, Schema, type Row, type SqlValue, type WriteOp } from '../ops.js';
import { StoreBase } from '../store-base.js';
import { StoreUnavailableError, type Store } from '../store-interface.js';
import { CHANGE_LOG_KEEP_MS, PgFollower } from './pg-follower.js';
import { migratePg } from './pg-schema.js';
import { pgTextOp } from './pg-sql.js';
import { databaseOnlyTable, DATABASE_ONLY_TABLES, pgParameters } from './pg-reads.js';
import { describeConnectionError, isConnectionError, maskDatabaseUrl } from './pg-url.js';
import { PgWriter, type WriterStatus } from './pg-writer.js';

const log = logger('store');

export interface PgStoreOptions {
  /** postgres://user:password@host:port/database (a secret: only its masked form is ever printed). */
  url: string;
  /** Local folder for files (artifact bodies, models). */
  dataDir: string;
  /** Ops kept in memory while the database is unreachable (default 10000). */
  maxQueuedOps?: number;
  /** Keep retrying an unreachable database at open for this long (default 10 s; Infinity: forever). */
  connectForMs?: number;
  /** Told of every failed attempt to reach the database at open (the message is masked). */
  onRetry?: (message: string, nextDelayMs: number) => void;
}

/** The read model's INTEGER-typed columns become float8 in PostgreSQL; BIGSERIAL (int8) as a number too. */
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === 20
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

export class PgStore extends StoreBase implements Store {
  readonly dataDir: string;
  readonly spansMachines = true;
  /** This replica's name in the change log (its own entries are not replayed). */
  readonly origin = randomUUID();
  readonly where: string;
  private closing: Promise<void> | null = null;
  private follower!: PgFollower;
  private writer!: PgWriter;
  private pruneTimer: NodeJS.Timeout | undefined;

  private constructor(
    options: PgStoreOptions,
    private readonly pool: pg.Pool,
    private readonly readPool: pg.Pool,
    private db: StoreDatabase,
    private readonly schema: Schema,
    private readonly engine: SqlEngine,
  ) {
    super();
    this.dataDir = path.resolve(options.dataDir);
    this.where = maskDatabaseUrl(options.url);
  }

  static async open(options: PgStoreOptions): Promise<PgStore> {
    const engine = await loadSqlEngine();
    const config: pg.ClientConfig = {
      connectionString: options.url,
      connectionTimeoutMillis: 3_000,
      types,
      application_name: 'grimoire',
    };
    // A connection that stops answering (no reset from a lost network) counts as down after 10 s.
    const pool = new pg.Pool({ ...config, max: 4, idleTimeoutMillis: 30_000, query_timeout: 10_000 });
    pool.on('error', (error) =>
      log.debug(`idle PostgreSQL connection lost: ${describeConnectionError(error, options.url)}`),
    );
    try {
      const client = await connectWithRetry(pool, options);
      let db: StoreDatabase;
      let seq: number;
      try {
        const applied = await migratePg(client, maskDatabaseUrl(options.url));
        if (applied.length) log.info(`PostgreSQL schema migrated to version ${applied[applied.length - 1]}`);
        ({ db, seq } = await loadReadModel(engine, client));
      } finally {
        client.release();
      }
      fs.mkdirSync(options.dataDir, { recursive: true });
      // Reads run in read-only transactions: a statement that changes rows fails, as the Store contract says.
      const readPool = new pg.Pool({
        ...config,
        connectionTimeoutMillis: 10_000,
        max: 4,
        idleTimeoutMillis: 30_000,
        query_timeout: 10_000,
        options: '-c default_transaction_read_only=on',
      });
      readPool.on('error', (error) =>
        log.debug(`idle PostgreSQL connection lost: ${describeConnectionError(error, options.url)}`),
      );
      const store = new PgStore(options, pool, readPool, db, new Schema(db.db), engine);
      store.writer = new PgWriter(pool, store.origin, options.maxQueuedOps ?? 10_000);
      store.follower = new PgFollower(config, pool, store.origin, seq, {
        apply: (ops) => store.applyToModel(ops),
        reload: () => store.reload(),
      });
      store.follower.start();
      store.pruneTimer = setInterval(() => store.pruneChangeLog(), 60_000);
      store.pruneTimer.unref();
      return store;
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw error;
    }
  }

  /** Visible to this process at once; committed (with the other writes of this turn) by the writer. */
  writeMany(ops: WriteOp[]): void {
    ops = this.prepared(this.schema, ops).map(pgTextOp);
    if (ops.length === 0) return;
    this.applyToModel(ops);
    this.writer.push(ops);
  }

  durable(): Promise<void> {
    return this.writer.onDisk();
  }

  acknowledged(): Promise<void> {
    return this.writer.committedOrQueued();
  }

  /** The read model's tables only: a query naming a table kept in the database alone throws. */
  query<T = Row>(sql: string, params: SqlValue[] = []): T[] {
    this.assertOpen();
    const table = databaseOnlyTable(sql);
    if (table) throw new Error(`store: on PostgreSQL the ${table} table is not held in memory: read it with read()`);
    return this.db.all<T>(sql, params);
  }

  /** Runs the query in PostgreSQL, once this replica's writes so far are committed (or queued while it is down). */
  override async read<T = Row>(sql: string, params: SqlValue[] = []): Promise<T[]> {
    this.assertOpen();
    await this.writer.committedOrQueued();
    try {
      return (await this.readPool.query(pgParameters(sql), params)).rows as T[];
    } catch (error) {
      if (isConnectionError(error))
        throw new StoreUnavailableError(
          `store unavailable: PostgreSQL at ${this.where} could not be read (${errorMessage(error)}); try again.`,
        );
      throw error;
    }
  }

  /** Fetches other replicas' committed writes now (they also arrive by themselves within a second). */
  catchUp(): Promise<void> {
    return this.follower.fetchSoon();
  }

  status(): WriterStatus & { lastSeq: number; replayed: number } {
    return { ...this.writer.status(), lastSeq: this.follower.lastSeq, replayed: this.follower.applied };
  }

  close(): Promise<void> {
    if (this.closing) return this.closing;
    this.closed = true;
    clearInterval(this.pruneTimer);
    this.closing = (async () => {
      await this.writer.stop(5_000);
      await this.follower.stop();
      await this.pool.end().catch(() => undefined);
      await this.readPool.end().catch(() => undefined);
      this.db.close();
    })();
    return this.closing;
  }

  private applyToModel(ops: WriteOp[]): void {
    const run = (sql: string, params: SqlValue[]) => this.db.run(sql, params);
    this.db.writing(() => {
      for (const op of ops) {
        if (DATABASE_ONLY_TABLES.has(op.table)) continue;
        try {
          applyOp(run, op);
        } catch (error) {
          log.warn(`skipping op on ${op.table}: ${errorMessage(error)}`);
        }
      }
    });
  }

  private async reload(): Promise<number> {
    const client = await this.pool.connect();
    try {
      const { db, seq } = await loadReadModel(this.engine, client);
      const old = this.db;
      this.db = db;
      old.close();
      this.applyToModel(this.writer.pendingOps());
      return seq;
    } finally {
      client.release();
    }
  }

  private pruneChangeLog(): void {
    this.pool.query('DELETE FROM grimoire_changes WHERE at < $1', [Date.now() - CHANGE_LOG_KEEP_MS]).catch((error) => {
      log.debug(`change log not pruned: ${errorMessage(error)}`);
    });
  }
}

async function connectWithRetry(pool: pg.Pool, options: PgStoreOptions): Promise<pg.PoolClient> {
  const giveUpAt = Date.now() + (options.connectForMs ?? 10_000);
  let delay = 250;
  for (;;) {
    try {
      const client = await pool.connect();
      client.on('error', (error) =>
        log.debug(`PostgreSQL connection lost at start: ${describeConnectionError(error, options.url)}`),
      );
      return client;
    } catch (error) {
      const message = describeConnectionError(error, options.url);
      if (!isConnectionError(error)) throw new Error(message);
      if (Date.now() + delay > giveUpAt) throw new Error(`${message} Gave up.`);
      options.onRetry?.(message, delay);
      log.warn(`${message} Retrying in ${(delay / 1000).toFixed(1)} s.`);
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(5_000, delay * 2);
    }
  }
}

/** Every table of the read model, read in one snapshot with the change sequence it reflects. */
async function loadReadModel(engine: SqlEngine, client: pg.PoolClient): Promise<{ db: StoreDatabase; seq: number }> {
  const db = StoreDatabase.create(engine);
  try {
    db.migrating((raw) => migrate(raw));
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    try {
      const seq = Number(
        (await client.query<{ seq: string }>('SELECT COALESCE(MAX(seq), 0) AS seq FROM grimoire_changes')).rows[0].seq,
      );
      const run = (sql: string, params: SqlValue[]) => db.run(sql, params);
      for (const table of Object.keys(TABLE_KEYS).filter((name) => !DATABASE_ONLY_TABLES.has(name))) {
        const rows = (await client.query<Row>(`SELECT * FROM "${table}"`)).rows;
        db.writing(() => {
          for (const row of rows) applyOp(run, { op: 'upsert', table, row });
        });
      }
      await client.query('COMMIT');
      db.commit();
      return { db, seq };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } catch (error) {
    db.close();
    throw error;
  }
}
