/**
 * The embedded store where a real SQLite loads (better-sqlite3, node:sqlite): one database file,
 * `grimoire.db`, in WAL mode, shared by every gateway and CLI on the data dir through SQLite's own
 * locking. A write is one `BEGIN IMMEDIATE` transaction (waiting up to `busy_timeout` for another
 * process's); it is committed in the WAL file when `writeMany` returns, so a killed process loses
 * nothing it committed. `synchronous = NORMAL`: SQLite syncs the WAL at checkpoints; for power loss
 * this store syncs it too (group-commit.ts), and `durable()` waits for such a sync.
 * Every query sees what any process committed before it. See server/store/README.md.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { errorMessage } from '../log.js';
import { StoreDatabase } from './database.js';
import { EmbeddedStoreBase } from './embedded-store-base.js';
import { DamagedStoreError, isDamage } from './damaged-file.js';
import { GroupCommit } from './group-commit.js';
import { migrate } from './migrations.js';
import { applyOps, Schema, type SqlValue, type WriteOp } from './ops.js';
import { rowsOf, type SqlDatabase, type SqlEngine } from './sql-surface.js';
import type { Store } from './store-interface.js';
import { writeFailure } from './write-failure.js';

export const DATABASE_FILE = 'grimoire.db';
/** How long a write waits for another process's transaction before it throws SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5_000;
const PRAGMAS = `PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL`;

/**
 * Runs a step of opening again while another process holds a lock SQLite does not wait for
 * (switching a new file to WAL, or its first schema read while another process does that): up
 * to BUSY_TIMEOUT_MS, as any write waits.
 */
function whileLocked<T>(step: () => T): T {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      return step();
    } catch (error) {
      if (!/database is locked|SQLITE_BUSY/i.test(errorMessage(error)) || Date.now() >= deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25);
    }
  }
}

/**
 * Reads every page (`PRAGMA quick_check`: the b-trees, not the index contents) before anything is
 * served: a truncated file or a garbage page throws DamagedStoreError here rather than on the
 * first read that meets it. It reads the whole file: `npm run bench:store` prints what it costs.
 */
function checkIntact(db: StoreDatabase): void {
  let problems: string[];
  try {
    problems = whileLocked(() => rowsOf<{ quick_check: string }>(db.db, 'PRAGMA quick_check(3)')).map(
      (row) => row.quick_check,
    );
  } catch (error) {
    if (isDamage(error)) throw new DamagedStoreError(errorMessage(error));
    throw error;
  }
  if (problems.join() !== 'ok') throw new DamagedStoreError(`PRAGMA quick_check: ${problems.join('; ')}`);
}

export interface SqliteStoreOptions {
  dataDir: string;
  /** An engine that opens files (better-sqlite3, node:sqlite). */
  engine: SqlEngine;
  /** Sync the WAL after writes and in `durable()` (default true); false: `durable()` resolves at once. */
  fsync?: boolean;
  /** Check every page at open (checkIntact; default true). See StoreOptions.verify. */
  verify?: boolean;
}

export class SqliteStore extends EmbeddedStoreBase implements Store {
  readonly dataDir: string;
  readonly file: string;
  protected readonly commits: GroupCommit;
  /** Moves when another connection committed (`PRAGMA data_version`). */
  private foreign = 0;
  private dataVersion = -1;

  private constructor(
    protected readonly db: StoreDatabase,
    private readonly schema: Schema,
    options: SqliteStoreOptions,
    file: string,
  ) {
    super();
    this.dataDir = path.resolve(options.dataDir);
    this.file = file;
    // Checkpoints sync the database file themselves; what is not checkpointed yet is in the WAL.
    this.commits = new GroupCommit(() => `${file}-wal`, options.fsync ?? true);
  }

  static open(options: SqliteStoreOptions): SqliteStore {
    const { engine } = options;
    if (!engine.openFile) throw new Error(`store: ${engine.name} cannot open a database file`);
    const dataDir = path.resolve(options.dataDir);
    fs.mkdirSync(dataDir, { recursive: true });
    const file = path.join(dataDir, DATABASE_FILE);
    let raw: SqlDatabase;
    try {
      raw = engine.openFile(file);
    } catch (error) {
      throw writeFailure(file, error, 'open');
    }
    let db: StoreDatabase;
    try {
      db = whileLocked(() => new StoreDatabase(raw, PRAGMAS));
    } catch (error) {
      raw.close();
      throw isDamage(error) ? new DamagedStoreError(errorMessage(error)) : writeFailure(file, error, 'open');
    }
    try {
      if (options.verify !== false) checkIntact(db);
      whileLocked(() => db.migrating((connection) => migrate(connection)));
      return new SqliteStore(db, new Schema(db.db), options, file);
    } catch (error) {
      db.close();
      throw error instanceof DamagedStoreError ? error : writeFailure(file, error, 'open');
    }
  }

  /** One transaction for all ops: they commit (and survive a crash) together. */
  writeMany(ops: WriteOp[]): void {
    ops = this.prepared(this.schema, ops);
    if (ops.length === 0) return;
    const run = (sql: string, params: SqlValue[]) => this.db.run(sql, params);
    let failure: unknown;
    try {
      this.db.run('BEGIN IMMEDIATE', []);
    } catch (error) {
      throw writeFailure(this.file, error);
    }
    try {
      applyOps(run, ops, (_op, error) => (failure ??= error));
      if (failure !== undefined) throw failure;
      this.db.run('COMMIT', []);
    } catch (error) {
      try {
        this.db.run('ROLLBACK', []);
      } catch {
        // SQLite rolled it back itself (a full disk, an I/O error): what failed is `error`
      }
      throw writeFailure(this.file, error);
    }
    this.written(ops);
  }

  tableVersion(table: string): number {
    this.assertOpen();
    const version = this.db.all<{ data_version: number }>('PRAGMA data_version', [])[0]?.data_version ?? 0;
    if (version !== this.dataVersion) {
      this.dataVersion = version;
      this.foreign += 1;
    }
    return this.foreign * 2 ** 32 + (this.tableVersions.get(table) ?? 0);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.commits.close();
    // The last connection to close checkpoints the WAL into the file and syncs it; otherwise the WAL stays for the others.
    this.db.close();
  }
}
