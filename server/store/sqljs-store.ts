/**
 * The store where no SQLite can write a file (sql.js, WebAssembly: a runtime that loads neither
 * node:sqlite nor better-sqlite3, see README.md): SQLite in memory, loaded from the snapshot
 * `grimoire.sqlite` and the journal after it, `journals/journal-<n>.jsonl`, which holds every batch
 * written since. One process at a time: the store holds `journal.lock` (data-dir-lock.ts) from open
 * to close. A write appends one line (committed once `writeSync` returned: a killed process loses
 * nothing acknowledged) and applies it in memory. Once the journal passes `compactBytes` and the
 * snapshot's size, the snapshot is rewritten and journal n+1 started.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { errorMessage, logger } from '../log.js';
import { lockDataDir } from './data-dir-lock.js';
import { StoreDatabase } from './database.js';
import { EmbeddedStoreBase } from './embedded-store-base.js';
import { GroupCommit } from './group-commit.js';
import {
  entryLine,
  journalGeneration,
  journalName,
  JOURNALS,
  liveLegacyWriter,
  listJournals,
  SNAPSHOT,
  syncDir,
} from './journal.js';
import { applyEntries, readJournals, watermarks } from './journal-replay.js';
import { migrate } from './migrations.js';
import { applyOps, Schema, type WriteOp } from './ops.js';
import { readSnapshot, writeSnapshot } from './snapshot.js';
import { sqlJsEngine } from './sql-engine.js';
import type { ImageDatabase } from './sql-surface.js';
import { DATABASE_FILE } from './sqlite-store.js';
import type { Store } from './store-interface.js';
import { writeFailure } from './write-failure.js';

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

export class SqljsStore extends EmbeddedStoreBase implements Store {
  readonly dataDir: string;
  private readonly journals: string;
  private readonly snapshot: string;
  private readonly compactBytes: number;
  protected readonly commits: GroupCommit;
  protected readonly db: StoreDatabase;
  private readonly schema: Schema;
  /** The journal after the snapshot, open for appending, and its size. */
  private journal: string;
  private fd: number;
  private size: number;
  private snapshotBytes: number;
  private lastTs = 0;

  private constructor(
    private readonly image: ImageDatabase,
    private readonly release: () => void,
    options: SqljsStoreOptions,
  ) {
    super();
    this.dataDir = path.resolve(options.dataDir);
    this.journals = path.join(this.dataDir, JOURNALS);
    this.snapshot = path.join(this.dataDir, SNAPSHOT);
    this.compactBytes = Math.max(1, options.compactBytes ?? COMPACT_BYTES);
    this.commits = new GroupCommit(() => path.join(this.journals, this.journal), options.fsync ?? true);
    this.db = new StoreDatabase(image);
    this.db.migrating((raw) => migrate(raw));
    this.schema = new Schema(image);
    this.snapshotBytes = fs.statSync(this.snapshot, { throwIfNoEntry: false })?.size ?? 0;
    const marks = watermarks(image);
    this.journal = journalName(Math.max(1, ...[...marks.keys()].map((name) => journalGeneration(name) ?? 0)));
    const replay = readJournals(this.journals, marks);
    this.fd = openJournal(path.join(this.journals, this.journal));
    this.size = replay.ends.get(this.journal) ?? 0;
    if (fs.fstatSync(this.fd).size > this.size) {
      log.warn(`cutting off a torn last line of ${this.journal} (a writer killed mid-write, never acknowledged)`);
      fs.ftruncateSync(this.fd, this.size);
    }
    this.db.writing(() => applyEntries((sql, params) => this.db.run(sql, params), this.schema, replay.entries));
    this.lastTs = replay.entries.reduce((latest, entry) => Math.max(latest, entry.ts), 0);
    if (replay.legacy.length > 0 && this.compactOrWarn(replay.legacy))
      log.info(`imported ${replay.legacy.length} journal(s) of an earlier Grimoire into ${SNAPSHOT}`);
  }

  /** Takes the data folder for this process (throws, naming it, while another has it): the snapshot, then the journals past it. */
  static async open(options: SqljsStoreOptions): Promise<SqljsStore> {
    const engine = await sqlJsEngine();
    const dataDir = path.resolve(options.dataDir);
    fs.mkdirSync(path.join(dataDir, JOURNALS), { recursive: true });
    const release = lockDataDir(dataDir, true);
    let image: ImageDatabase | undefined;
    try {
      const file = path.join(dataDir, DATABASE_FILE);
      if (fs.existsSync(file)) {
        throw new Error(
          `store: ${file} is a SQLite database file, which sql.js cannot share with other processes; ` +
            `run on a Node whose node:sqlite the store can use (Node 22.13+, ` +
            `VS Code 1.101 or later) or with better-sqlite3`,
        );
      }
      const writer = liveLegacyWriter(path.join(dataDir, JOURNALS));
      if (writer !== undefined)
        throw new Error(
          `store: process ${writer} (an earlier Grimoire) still writes this data dir's journals; close it, then open the store again`,
        );
      image = readSnapshot(engine, path.join(dataDir, SNAPSHOT));
      return new SqljsStore(image, release, options);
    } catch (error) {
      image?.close();
      release();
      throw error;
    }
  }

  /** One journal line for all ops: they commit (and survive a crash) together. */
  writeMany(ops: WriteOp[]): void {
    ops = this.prepared(this.schema, ops);
    if (ops.length === 0) return;
    const ts = Math.max(Date.now(), this.lastTs);
    const line = entryLine(this.journal, this.size, ts, ops);
    try {
      for (let written = 0; written < line.length;)
        written += fs.writeSync(this.fd, line, written, line.length - written);
    } catch (error) {
      fs.ftruncateSync(this.fd, this.size); // leave no torn line behind
      throw writeFailure(path.join(this.journals, this.journal), error);
    }
    this.size += line.length;
    this.lastTs = ts;
    this.db.writing(() =>
      applyOps(
        (sql, params) => this.db.run(sql, params),
        ops,
        (op, error) => log.warn(`could not apply an op on ${op.table}: ${errorMessage(error)}`),
      ),
    );
    this.written(ops);
    if (this.size >= Math.max(this.compactBytes, this.snapshotBytes)) this.compactOrWarn();
  }

  /** This store's writes to `table` (no other process writes while it is open). */
  tableVersion(table: string): number {
    this.assertOpen();
    return this.tableVersions.get(table) ?? 0;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.commits.close();
    fs.closeSync(this.fd);
    this.db.close();
    this.release();
  }

  /** Compacts; a failure leaves the snapshot and the journals as they were (the next write tries again). */
  private compactOrWarn(imported: string[] = []): boolean {
    try {
      this.compact(imported);
      return true;
    } catch (error) {
      log.warn(`compaction failed: ${errorMessage(error)}`);
      return false;
    }
  }

  /**
   * The database (with its watermarks: this journal at its end, the next at 0) as the new
   * snapshot, then journal n+1; the journals it holds are deleted (`imported`: an earlier
   * release's, folded in at open).
   */
  private compact(imported: string[] = []): void {
    const generation = (journalGeneration(this.journal) ?? 1) + 1;
    const next = journalName(generation);
    this.db.writing(() => {
      this.db.run('DELETE FROM journal_watermarks', []);
      this.db.run('INSERT INTO journal_watermarks (journal, offset) VALUES (?, ?), (?, 0)', [
        this.journal,
        this.size,
        next,
      ]);
    });
    this.db.commit();
    const bytes = this.image.export();
    const nextPath = path.join(this.journals, next);
    fs.rmSync(nextPath, { force: true }); // one a compaction that failed before its rename left
    const fd = openJournal(nextPath);
    try {
      writeSnapshot(this.snapshot, bytes);
    } catch (error) {
      fs.closeSync(fd);
      fs.rmSync(nextPath, { force: true });
      throw error;
    }
    fs.closeSync(this.fd);
    this.fd = fd;
    this.journal = next;
    this.size = 0;
    this.snapshotBytes = bytes.length;
    for (const name of listJournals(this.journals)) {
      if ((journalGeneration(name) ?? generation) < generation || imported.includes(name))
        fs.rmSync(path.join(this.journals, name), { force: true });
    }
  }
}

/** The journal open for appending; a new one's name synced into its folder. */
function openJournal(file: string): number {
  const created = !fs.existsSync(file);
  const fd = fs.openSync(file, 'a');
  if (created) syncDir(path.dirname(file));
  return fd;
}
