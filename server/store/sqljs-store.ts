/**
 * The store where no SQLite can write a file (sql.js, WebAssembly: VS Code 1.101-1.102, see
 * README.md): SQLite in memory, loaded from the snapshot `grimoire.sqlite` and the one journal after
 * it, `journals/journal-<n>.jsonl`, which holds every batch written since, in the order written.
 * One process writes at a time: a write takes `journal.lock` (write-lock.ts), folds in the lines
 * other processes appended, appends its own line (committed once `writeSync` returned: a killed
 * process loses nothing acknowledged) and releases the lock. A query folds in what was appended
 * since the last one (one `stat`). Once the journal passes `compactBytes` and the snapshot's size,
 * the writer rewrites the snapshot and starts journal n+1; another process loads again when it
 * finds journal n gone. An open store leaves `journals/<pid>-<random>.open`, so that a process with
 * a real SQLite does not move the data dir into `grimoire.db` under it (store.ts).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { errorMessage, logger } from '../log.js';
import { StoreDatabase } from './database.js';
import { GroupCommit } from './group-commit.js';
import { entryLine, gonePresence, journalGeneration, journalName, JOURNALS, liveLegacyWriter, listJournals, presenceName, readJournal, SNAPSHOT, syncDir, type ParsedEntry } from './journal.js';
import { applyEntries, readJournals, watermarks } from './journal-replay.js';
import { migrate } from './migrations.js';
import { applyOps, Schema, type Row, type SqlValue, type WriteOp } from './ops.js';
import { moveCorrupt, writeSnapshot } from './snapshot.js';
import { sqlJsEngine } from './sql-engine.js';
import { rowsOf, type ImageDatabase, type ImageEngine } from './sql-surface.js';
import { DATABASE_FILE } from './sqlite-store.js';
import { StoreBase } from './store-base.js';
import type { Store } from './store-interface.js';
import { LOCK_FILE, withLock } from './write-lock.js';

const log = logger('store');
/** About 10,000 recorded calls of journal: what a load replays at most beyond the snapshot's size. */
const COMPACT_BYTES = 4 * 1024 * 1024;

export interface SqljsStoreOptions {
  dataDir: string;
  /** fdatasync the journal (group commit) and `durable()` waits for it (default true). */
  fsync?: boolean;
  /** Compact once the journal holds this many bytes and the snapshot's size (default 4 MiB). */
  compactBytes?: number;
}

export class SqljsStore extends StoreBase implements Store {
  readonly dataDir: string;
  private readonly journals: string;
  private readonly snapshot: string;
  private readonly lock: string;
  private readonly presence: string;
  private readonly compactBytes: number;
  private readonly commits: GroupCommit;
  private db!: StoreDatabase;
  private image!: ImageDatabase;
  private schema!: Schema;
  /** The journal after the snapshot, open for appending and reading; the bytes of it folded in. */
  private journal = '';
  private fd = -1;
  private applied = 0;
  private lastTs = 0;
  private snapshotBytes = 0;
  /** Per table, bumped whenever ops on it are applied; `loads` moves every table's version. */
  private readonly tableVersions = new Map<string, number>();
  private loads = 0;

  private constructor(
    private readonly engine: ImageEngine,
    options: SqljsStoreOptions,
  ) {
    super();
    this.dataDir = path.resolve(options.dataDir);
    this.journals = path.join(this.dataDir, JOURNALS);
    this.snapshot = path.join(this.dataDir, SNAPSHOT);
    this.lock = path.join(this.dataDir, LOCK_FILE);
    this.presence = path.join(this.journals, presenceName(randomBytes(4).toString('hex')));
    this.compactBytes = Math.max(1, options.compactBytes ?? COMPACT_BYTES);
    this.commits = new GroupCommit(() => path.join(this.journals, this.journal), options.fsync ?? true);
  }

  static async open(options: SqljsStoreOptions): Promise<SqljsStore> {
    const store = new SqljsStore(await sqlJsEngine(), options);
    fs.mkdirSync(store.journals, { recursive: true });
    withLock(store.lock, () => {
      const file = path.join(store.dataDir, DATABASE_FILE);
      if (fs.existsSync(file)) {
        throw new Error(`store: ${file} is a SQLite database file, which sql.js cannot share with other processes; run on a Node whose node:sqlite the store can use (Node 24, recent Node 22; VS Code 1.103 or later) or with better-sqlite3`);
      }
      const writer = liveLegacyWriter(store.journals);
      if (writer !== undefined) throw new Error(`store: process ${writer} (an earlier Grimoire) still writes this data dir's journals; close it, then open the store again`);
      for (const name of gonePresence(store.journals)) fs.rmSync(path.join(store.journals, name), { force: true });
      fs.writeFileSync(store.presence, '');
      try {
        store.load();
      } catch (error) {
        fs.rmSync(store.presence, { force: true });
        throw error;
      }
    });
    return store;
  }

  /** One journal line for all ops, appended under the lock: they commit (and survive a crash) together. */
  writeMany(ops: WriteOp[]): void {
    ops = this.prepared(this.schema, ops);
    if (ops.length === 0) return;
    withLock(this.lock, () => {
      this.refresh(true);
      const ts = Math.max(Date.now(), this.lastTs);
      const line = entryLine(this.journal, this.applied, ts, ops);
      try {
        for (let written = 0; written < line.length; ) written += fs.writeSync(this.fd, line, written, line.length - written);
      } catch (error) {
        fs.ftruncateSync(this.fd, this.applied); // leave no torn line behind
        throw error;
      }
      this.applied += line.length;
      this.lastTs = ts;
      this.apply(ops, (op, error) => log.warn(`could not apply an op on ${op.table}: ${errorMessage(error)}`));
      if (this.applied >= Math.max(this.compactBytes, this.snapshotBytes)) {
        try {
          this.compact();
        } catch (error) {
          log.warn(`compaction failed: ${errorMessage(error)}`);
        }
      }
    });
    this.commits.noteWrite();
  }

  durable(): Promise<void> {
    this.assertOpen();
    return this.commits.durable();
  }

  /** fdatasync calls the group commit made so far (for benchmarks and tests). */
  get journalSyncs(): number {
    return this.commits.syncs;
  }

  tableVersion(table: string): number {
    this.assertOpen();
    this.refresh(false);
    return this.loads * 2 ** 32 + (this.tableVersions.get(table) ?? 0);
  }

  /** Read-only SQL over everything committed so far by any process; a statement that changes rows throws. */
  query<T = Row>(sql: string, params: SqlValue[] = []): T[] {
    this.assertOpen();
    this.refresh(false);
    return this.db.all<T>(sql, params);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.commits.close();
    fs.closeSync(this.fd);
    fs.rmSync(this.presence, { force: true });
    this.db.close();
  }

  /**
   * Folds in the lines appended since the last look. When the journal is gone (another process
   * compacted), loads again; `locked`: under the lock already, where a torn last line is a dead
   * writer's and is cut off.
   */
  private refresh(locked: boolean): void {
    const size = journalSize(path.join(this.journals, this.journal));
    if (size === undefined) {
      if (locked) this.load();
      else withLock(this.lock, () => this.load());
      return;
    }
    if (size <= this.applied) return;
    const chunk = readJournal(this.journals, this.journal, this.applied, this.fd);
    this.applyEntries(chunk.entries);
    this.applied = chunk.end;
    if (locked && chunk.tail.length > 0) {
      log.warn(`cutting off a torn last line of ${this.journal} (${chunk.tail.length} bytes: a writer killed mid-write, never acknowledged)`);
      fs.ftruncateSync(this.fd, this.applied);
    }
  }

  /**
   * Under the lock: the snapshot, then every journal past its watermarks. An earlier release's
   * per-process journals (their owners gone) are folded in and compacted away at once.
   */
  private load(): void {
    const image = this.openSnapshot();
    const db = new StoreDatabase(image);
    let legacy: string[];
    try {
      db.migrating((raw) => migrate(raw));
      const schema = new Schema(image);
      const marks = watermarks(image);
      const replay = readJournals(this.journals, marks);
      const generation = Math.max(1, ...[...marks.keys()].map((name) => journalGeneration(name) ?? 0));
      const journal = journalName(generation);
      const fd = openJournal(path.join(this.journals, journal));
      const applied = replay.ends.get(journal) ?? 0;
      if (fs.fstatSync(fd).size > applied) fs.ftruncateSync(fd, applied); // a dead writer's torn line
      if (this.fd >= 0) fs.closeSync(this.fd);
      this.db?.close();
      Object.assign(this, { db, image, schema, journal, fd, applied, lastTs: 0 });
      this.snapshotBytes = fs.statSync(this.snapshot, { throwIfNoEntry: false })?.size ?? 0;
      this.loads += 1;
      this.applyEntries(replay.entries);
      legacy = replay.legacy;
    } catch (error) {
      if (this.db !== db) db.close();
      throw error;
    }
    if (legacy.length > 0) {
      this.compact(legacy);
      log.info(`imported ${legacy.length} journal(s) of an earlier Grimoire into ${SNAPSHOT}`);
    }
  }

  /** The snapshot in memory (empty when there is none); one that does not read back is moved aside. */
  private openSnapshot(): ImageDatabase {
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(this.snapshot);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return this.engine.open();
      throw error;
    }
    let image: ImageDatabase | undefined;
    try {
      image = this.engine.open(bytes);
      const check = rowsOf<{ quick_check: string }>(image, 'PRAGMA quick_check')[0]?.quick_check;
      if (check !== 'ok') throw new Error(`quick_check: ${String(check)}`);
      return image;
    } catch (error) {
      image?.close();
      log.warn(`snapshot ${this.snapshot} is unreadable (${errorMessage(error)}); moved aside to ${path.basename(moveCorrupt(this.snapshot))}, loading the journals alone`);
      return this.engine.open();
    }
  }

  /**
   * Under the lock: the database (with its watermarks) as the new snapshot, then journal n+1; the
   * journals it holds are deleted (`imported`: an earlier release's ones folded in by `load`).
   */
  private compact(imported: string[] = []): void {
    const generation = (journalGeneration(this.journal) ?? 1) + 1;
    const next = journalName(generation);
    this.db.writing(() => {
      this.db.run('DELETE FROM journal_watermarks', []);
      this.db.run('INSERT INTO journal_watermarks (journal, offset) VALUES (?, ?), (?, 0)', [this.journal, this.applied, next]);
    });
    this.db.commit();
    const bytes = this.image.export();
    const nextPath = path.join(this.journals, next);
    fs.rmSync(nextPath, { force: true }); // an empty one a compaction that died before its rename left
    const fd = openJournal(nextPath);
    try {
      writeSnapshot(this.snapshot, bytes);
    } catch (error) {
      fs.closeSync(fd);
      fs.rmSync(nextPath, { force: true });
      throw error;
    }
    fs.closeSync(this.fd);
    Object.assign(this, { fd, journal: next, applied: 0, snapshotBytes: bytes.length });
    for (const name of listJournals(this.journals)) {
      if ((journalGeneration(name) ?? generation) < generation || imported.includes(name)) fs.rmSync(path.join(this.journals, name), { force: true });
    }
  }

  /** Others' entries: each op validated (a line from elsewhere may hold anything). */
  private applyEntries(entries: ParsedEntry[]): void {
    if (entries.length === 0) return;
    for (const entry of entries) {
      this.lastTs = Math.max(this.lastTs, entry.ts);
      for (const op of entry.ops) this.tableVersions.set(op.table, (this.tableVersions.get(op.table) ?? 0) + 1);
    }
    this.db.writing(() => applyEntries((sql, params) => this.db.run(sql, params), this.schema, entries));
  }

  /** This store's own ops (validated already). */
  private apply(ops: WriteOp[], failed: (op: WriteOp, error: unknown) => void): void {
    for (const op of ops) this.tableVersions.set(op.table, (this.tableVersions.get(op.table) ?? 0) + 1);
    this.db.writing(() => applyOps((sql, params) => this.db.run(sql, params), ops, failed));
  }
}

/** The journal open for appending and reading; a new one's name synced into its folder. */
function openJournal(file: string): number {
  const created = !fs.existsSync(file);
  const fd = fs.openSync(file, 'a+');
  if (created) syncDir(path.dirname(file));
  return fd;
}

/** The journal's size; undefined once a compaction deleted it (on Windows, while its deletion is pending). */
function journalSize(file: string): number | undefined {
  try {
    return fs.statSync(file).size;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EPERM') return undefined;
    throw error;
  }
}
