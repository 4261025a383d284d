/**
 * The journaled store, for a runtime where no SQLite can write a file (sql.js): SQLite in memory
 * (sql-engine.ts), made durable and shareable between processes by per-process journals of logical
 * ops (merged on read), a change counter that tells when to read them, group commit for
 * power-loss durability, and a snapshot that compaction rewrites under `compact.lock`. See
 * server/store/README.md for the protocol and its guarantees.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { errorMessage, logger } from '../../log.js';
import { ChangeCounter } from './change-counter.js';
import { StoreDatabase } from '../database.js';
import { GroupCommit } from './group-commit.js';
import { JournalWriter, journalOwner, listJournals, parseEntry, readJournal, type ParsedEntry } from './journal.js';
import { releaseLock, stillHeld, tryAcquireLock, type CompactLock } from './lock.js';
import { migrate } from '../migrations.js';
import { applyOps, Schema, type Row, type SqlValue, type WriteOp } from '../ops.js';
import { isAlive } from './pids.js';
import { moveCorrupt, readSnapshot, removeStaleTemps, snapshotIdentity, writeSnapshot } from './snapshot.js';
import { loadSqlEngine, type SqlEngine } from '../sql-engine.js';
import { writeSnapshotInBackground } from './snapshot-in-background.js';
import { StoreBase } from '../store-base.js';
import type { Store as StoreContract } from '../store-interface.js';


export interface StoreOptions {
  dataDir: string;
  /** fdatasync the journal (grouped: see group-commit.ts; default true). The snapshot is always fsync'ed. */
  fsync?: boolean;
  /** Try to compact after this many written ops (default 500; 0 disables), once `compactRatio` is reached too. */
  compactEvery?: number;
  /**
   * Try to compact only once the journal bytes this Store wrote since its last compaction reach
   * this share of the snapshot's size (default 0.5): a compaction rewrites the whole snapshot, so
   * its cost per written byte stays the same as the database grows. 0: `compactEvery` alone.
   */
  compactRatio?: number;
  /** List the journals at least this often even when the change counter did not move (default 1000 ms): writers of older versions do not move it. */
  listEveryMs?: number;
  /** The SQLite engine (default: this process's, see sql-engine.ts). */
  engine?: SqlEngine;
  /**
   * After a compaction, a journal of this Store past this many bytes is left for a new one (default
   * 8 MiB), and the next compaction deletes it: a Store that runs for weeks keeps its journal small.
   */
  rotateJournalBytes?: number;
}

const log = logger('store');
const SNAPSHOT = 'grimoire.sqlite';
const JOURNALS = 'journals';
const LOCK = 'compact.lock';
const OPEN_LOCK_WAIT_MS = 5_000;
/** Compaction waits for this long a pause in this Store's writes (see queueCompaction). */
const COMPACT_PAUSE_MS = 50;
/** About 30,000 recorded calls of journal. */
const ROTATE_JOURNAL_BYTES = 8 * 1024 * 1024;

/** Paths of journals whose Store closed in this process: the owner pid lives on, the file won't grow. */
const closedJournals = new Set<string>();

const byStamp = (a: ParsedEntry, b: ParsedEntry): number =>
  a.ts - b.ts || (a.journal < b.journal ? -1 : a.journal > b.journal ? 1 : 0) || a.seq - b.seq;

/** A compaction between its export and its end. */
interface Compaction {
  lock: CompactLock;
  /** The database file, watermarks included. */
  bytes: Uint8Array;
  /** The snapshot identity it may replace. */
  expected: string | null;
  /** Journals of gone owners, deleted once folded in and the snapshot is safe. */
  gone: string[];
  abandoned: boolean;
}

const isMissing = (error: unknown): boolean => (error as NodeJS.ErrnoException)?.code === 'ENOENT';

export class JournaledStore extends StoreBase implements StoreContract {
  readonly dataDir: string;
  private readonly snapshotPath: string;
  private readonly journalDir: string;
  private readonly lockPath: string;
  private readonly compactEvery: number;
  private readonly compactRatio: number;
  /** Created by the first write: a Store that only reads leaves no file behind. */
  private writer: JournalWriter | null = null;
  private readonly fsync: boolean;
  /** Built by `reload` when the Store opens. */
  private db!: StoreDatabase;
  private schema!: Schema;
  /** Bytes of each journal folded into `db`. */
  private applied = new Map<string, number>();
  /** Identity of the snapshot file `db` was built from (null: none). */
  private snapshotId: string | null = null;
  /** Set when a corrupt snapshot could not be moved aside at load: compaction moves it first. */
  private corruptSnapshot = false;
  private writesSinceCompact = 0;
  private bytesSinceCompact = 0;
  /** Size of the snapshot `db` was last loaded from or written to. */
  private snapshotBytes = 0;
  /** Armed once `compactEvery` ops are written; every later write moves it back. */
  private compactTimer: NodeJS.Timeout | undefined;
  /** The compaction whose snapshot is being written off the event loop. */
  private background: Compaction | undefined;
  private readonly changes: ChangeCounter;
  private readonly commits: GroupCommit;
  private lastFullLook = 0;
  private readonly listEveryMs: number;
  private readonly rotateJournalBytes: number;
  /** Per table, bumped whenever ops on it are applied; `reloads` moves every table's version. */
  private readonly tableVersions = new Map<string, number>();
  private reloads = 0;

  private constructor(
    private readonly engine: SqlEngine,
    options: StoreOptions,
  ) {
    super();
    this.dataDir = path.resolve(options.dataDir);
    this.snapshotPath = path.join(this.dataDir, SNAPSHOT);
    this.journalDir = path.join(this.dataDir, JOURNALS);
    this.lockPath = path.join(this.dataDir, LOCK);
    this.compactEvery = Math.max(0, options.compactEvery ?? 500);
    this.compactRatio = Math.max(0, options.compactRatio ?? 0.5);
    this.listEveryMs = options.listEveryMs ?? 1_000;
    this.rotateJournalBytes = Math.max(1, options.rotateJournalBytes ?? ROTATE_JOURNAL_BYTES);
    fs.mkdirSync(this.journalDir, { recursive: true });
    this.fsync = options.fsync ?? true;
    this.changes = new ChangeCounter(this.dataDir);
    this.commits = new GroupCommit(() => this.journal(), this.fsync);
  }

  static async open(options: StoreOptions): Promise<JournaledStore> {
    const store = new JournaledStore(options.engine ?? (await loadSqlEngine()), options);
    try {
      const deadline = Date.now() + OPEN_LOCK_WAIT_MS;
      while (!store.reload(Date.now() >= deadline)) await new Promise((r) => setTimeout(r, 50));
    } catch (error) {
      store.changes.close();
      store.db?.close();
      throw error;
    }
    return store;
  }

  /** One journal line for all ops: they commit (and survive a crash) together. */
  writeMany(ops: WriteOp[]): void {
    ops = this.prepared(this.schema, ops);
    if (ops.length === 0) return;
    // Fold in what others committed first, so this process applies ops in stamp order.
    this.refresh();
    if (this.writer?.broken) this.rotateJournal();
    const writer = this.journal();
    const before = writer.size;
    const entry = writer.append(ops);
    this.applied.set(writer.name, writer.size);
    this.applyEntries(this.db, this.schema, [entry], true);
    this.commits.noteWrite();
    this.changes.bump();
    this.writesSinceCompact += ops.length;
    this.bytesSinceCompact += writer.size - before;
    if (this.compactionDue(2)) this.compactNow();
    else if (this.compactionDue(1)) this.queueCompaction();
  }

  /** `times` the thresholds were written since the last compaction: `compactEvery` ops and `compactRatio` of the snapshot's bytes. */
  private compactionDue(times: number): boolean {
    return this.compactEvery > 0 && this.writesSinceCompact >= times * this.compactEvery && this.bytesSinceCompact >= times * this.compactRatio * this.snapshotBytes;
  }

  durable(): Promise<void> {
    return this.commits.durable();
  }

  /** fdatasync calls the group commit made so far (for benchmarks and tests). */
  get journalSyncs(): number {
    return this.commits.syncs;
  }

  /**
   * Compaction is slow (the whole database is written): it waits for a pause of COMPACT_PAUSE_MS
   * in this Store's writes, so that a busy gateway does not stall between calls; inside a write
   * only when the writes went on without such a pause for twice the thresholds.
   */
  private queueCompaction(): void {
    if (this.compactTimer) {
      this.compactTimer.refresh();
      return;
    }
    this.compactTimer = setTimeout(() => {
      this.compactTimer = undefined;
      if (!this.closed && this.compactionDue(1)) this.compactNow();
    }, COMPACT_PAUSE_MS);
    this.compactTimer.unref();
  }

  /** Starts a compaction whose snapshot file is written off the event loop (at most one at a time). */
  private compactNow(): void {
    clearTimeout(this.compactTimer);
    this.compactTimer = undefined;
    if (this.background) return;
    this.writesSinceCompact = 0;
    this.bytesSinceCompact = 0;
    let job: Compaction | null;
    try {
      job = this.prepareCompaction();
    } catch (error) {
      log.warn(`compaction failed: ${errorMessage(error)}`);
      return;
    }
    if (!job) return;
    const started = job;
    this.background = started;
    writeSnapshotInBackground(this.snapshotPath, started.bytes, started.expected, {
      proceed: () => !started.abandoned && stillHeld(started.lock),
      renamed: (identity) => this.snapshotReplaced(started, identity),
      done: (error, replaced) => {
        if (started.abandoned) return; // compact() or close() took over and released the lock
        this.background = undefined;
        try {
          if (error) throw error;
          this.finishCompaction(started, replaced);
        } catch (failure) {
          log.warn(`compaction failed: ${errorMessage(failure)}`);
        } finally {
          releaseLock(started.lock);
        }
      },
    });
  }

  /** A compaction in flight stops here: its snapshot is not renamed in (if it was not yet), its lock released. */
  private abandonBackground(): void {
    const job = this.background;
    if (!job) return;
    this.background = undefined;
    job.abandoned = true;
    releaseLock(job.lock);
  }

  tableVersion(table: string): number {
    this.assertOpen();
    this.refresh();
    return this.reloads * 2 ** 32 + (this.tableVersions.get(table) ?? 0);
  }

  /** Read-only SQL over everything committed so far; a statement that changes rows throws (and is rolled back). */
  query<T = Row>(sql: string, params: SqlValue[] = []): T[] {
    this.assertOpen();
    this.refresh();
    return this.db.all<T>(sql, params);
  }

  /**
   * Folds every journal into a new snapshot and deletes the journals of gone owners. Returns false
   * (doing nothing) when another live process holds the lock. A compaction of this Store still
   * in flight is abandoned first.
   */
  compact(): boolean {
    if (this.closed) throw new Error('store: closed');
    this.abandonBackground();
    const job = this.prepareCompaction();
    if (!job) return false;
    try {
      const identity = writeSnapshot(this.snapshotPath, job.bytes, job.expected);
      if (identity !== null) this.snapshotReplaced(job, identity);
      return this.finishCompaction(job, identity !== null);
    } finally {
      releaseLock(job.lock);
    }
  }

  /** Takes the lock and exports the database with its watermarks; null when the lock is busy (or was lost). */
  private prepareCompaction(): Compaction | null {
    const lock = tryAcquireLock(this.lockPath);
    if (!lock) return null;
    try {
      removeStaleTemps(this.snapshotPath);
      this.refresh(true);
      const names = listJournals(this.journalDir);
      const gone = names.filter((name) => this.ownerGone(name));
      for (const name of gone) this.foldTail(name);
      this.db.writing(() => {
        this.db.run('DELETE FROM journal_watermarks', []);
        for (const name of names) {
          const offset = this.applied.get(name);
          if (offset !== undefined) this.db.run('INSERT INTO journal_watermarks (journal, offset) VALUES (?, ?)', [name, offset]);
        }
      });
      let expected = this.snapshotId;
      if (this.corruptSnapshot && expected !== null) {
        const aside = moveCorrupt(this.snapshotPath, expected);
        if (aside) log.warn(`moved corrupt snapshot aside to ${path.basename(aside)}`);
        expected = aside ? null : expected;
      }
      if (stillHeld(lock)) return { lock, bytes: this.db.export(), expected, gone, abandoned: false };
    } catch (error) {
      releaseLock(lock);
      throw error;
    }
    releaseLock(lock);
    return null;
  }

  /** The snapshot file is now the compaction's: what `refresh` compares with. */
  private snapshotReplaced(job: Compaction, identity: string | null): void {
    this.snapshotId = identity;
    this.snapshotBytes = job.bytes.length;
    this.corruptSnapshot = false;
  }

  /** After the snapshot is written (and synced): deletes the folded journals of gone owners, announces it. */
  private finishCompaction(job: Compaction, replaced: boolean): boolean {
    if (!replaced) {
      log.warn('snapshot was replaced during compaction; keeping journals');
      return false;
    }
    for (const name of job.gone) this.removeIfFolded(name);
    // The journal left here is a closed one: the next compaction folds in its tail and deletes it.
    if (this.writer?.isOpen && this.writer.size >= this.rotateJournalBytes) this.rotateJournal();
    this.changes.rotateIfLarge();
    this.changes.bump();
    return true;
  }

  /**
   * Closes the journal and the database, compacting first (if the lock is free) when this Store
   * wrote or a gone process left a journal behind. Idempotent.
   */
  close(): void {
    if (this.closed) return;
    clearTimeout(this.compactTimer);
    try {
      this.abandonBackground();
      this.commits.close();
      const wrote = this.writer !== null;
      if (this.writer) {
        this.writer.close();
        closedJournals.add(this.writer.path);
      }
      if (wrote || listJournals(this.journalDir).some((name) => this.ownerGone(name))) this.compact();
    } catch (error) {
      log.warn(`compaction on close failed: ${errorMessage(error)}`);
    } finally {
      this.closed = true;
      this.changes.close();
      this.db.close();
    }
  }

  private ownerGone(name: string): boolean {
    if (this.writer && name === this.writer.name) return !this.writer.isOpen;
    if (closedJournals.has(path.join(this.journalDir, name))) return true;
    const pid = journalOwner(name);
    return pid !== null && pid !== process.pid && !isAlive(pid);
  }

  /** A gone owner's unterminated last line will never complete: apply it if whole, else skip it. */
  private foldTail(name: string): void {
    const from = this.applied.get(name) ?? 0;
    let chunk;
    try {
      chunk = readJournal(this.journalDir, name, from);
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    const entries = [...chunk.entries];
    if (chunk.tail.length > 0) {
      const entry = parseEntry(chunk.tail.toString('utf8'), name, 'unterminated last line');
      if (entry) entries.push(entry);
    }
    this.applyEntries(this.db, this.schema, entries);
    this.applied.set(name, chunk.end + chunk.tail.length);
  }

  private removeIfFolded(name: string): void {
    const file = path.join(this.journalDir, name);
    try {
      if (fs.statSync(file).size > (this.applied.get(name) ?? 0)) return;
      fs.rmSync(file, { force: true });
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
    this.applied.delete(name);
    closedJournals.delete(file);
  }

  private journal(): JournalWriter {
    return (this.writer ??= new JournalWriter(this.journalDir, this.fsync));
  }

  private rotateJournal(): void {
    const old = this.journal();
    try {
      this.commits.flushNow();
    } catch (error) {
      log.warn(`could not sync journal ${old.name} before leaving it: ${errorMessage(error)}`);
    }
    old.close();
    closedJournals.add(old.path);
    this.writer = new JournalWriter(this.journalDir, this.fsync);
  }

  /**
   * Applies the journal bytes other processes committed since the last look, when the change
   * counter moved (or `force`, or a while passed). If a journal this Store knew vanished, or the
   * snapshot was replaced (another process compacted, possibly deleting journals this Store never
   * saw), rebuilds from the new snapshot instead.
   */
  private refresh(force = false): void {
    const now = Date.now();
    if (!force && !this.changes.moved() && now - this.lastFullLook < this.listEveryMs) return;
    const counter = this.changes.current();
    this.lastFullLook = now;
    const names = listJournals(this.journalDir);
    const present = new Set(names);
    let stale = [...this.applied.keys()].some((name) => !present.has(name));
    const entries: ParsedEntry[] = [];
    const ends = new Map<string, number>();
    for (const name of stale ? [] : names) {
      if (name === this.writer?.name) continue;
      try {
        const chunk = readJournal(this.journalDir, name, this.applied.get(name) ?? 0);
        entries.push(...chunk.entries);
        ends.set(name, chunk.end);
      } catch (error) {
        if (!isMissing(error)) throw error;
        stale = true;
        break;
      }
    }
    if (stale || snapshotIdentity(this.snapshotPath) !== this.snapshotId) {
      this.reload(true);
      return;
    }
    this.applyEntries(this.db, this.schema, entries);
    for (const [name, end] of ends) this.applied.set(name, end);
    this.changes.markSeen(counter);
  }

  /**
   * Builds the database from the snapshot plus every journal beyond its watermark, and swaps it in.
   * A corrupt snapshot is moved aside under the lock; returns false when that lock is busy and
   * `giveUp` is false (the caller waits and retries), otherwise rebuilds from the journals alone.
   */
  private reload(giveUp: boolean): boolean {
    for (let attempt = 0; ; attempt++) {
      const counter = this.changes.current();
      const snapshot = readSnapshot(this.snapshotPath);
      let db: StoreDatabase | null = null;
      let corrupt = false;
      if (snapshot.bytes && snapshot.bytes.length > 0) {
        try {
          db = StoreDatabase.create(this.engine, snapshot.bytes);
          const check = db.db.exec('PRAGMA quick_check')[0]?.values[0]?.[0];
          if (check !== 'ok') throw new Error(`quick_check: ${String(check)}`);
        } catch (error) {
          db?.close();
          db = null;
          corrupt = true;
          log.warn(`snapshot ${this.snapshotPath} is unreadable (${errorMessage(error)}); rebuilding from journals`);
        }
      }
      let corruptKept = false;
      if (corrupt && snapshot.identity) {
        const lock = tryAcquireLock(this.lockPath);
        if (lock) {
          try {
            const aside = moveCorrupt(this.snapshotPath, snapshot.identity);
            if (!aside) continue; // replaced meanwhile: read the new one
            log.warn(`moved corrupt snapshot aside to ${path.basename(aside)}`);
          } finally {
            releaseLock(lock);
          }
        } else if (!giveUp) {
          return false;
        } else {
          corruptKept = true;
        }
      }
      db ??= StoreDatabase.create(this.engine);
      const fresh = db;
      fresh.migrating((raw) => migrate(raw)); // a failing migration is a bug, not corruption: let it throw
      const schema = new Schema(fresh.db);
      const watermarks = new Map<string, number>();
      for (const [journal, offset] of fresh.db.exec('SELECT journal, offset FROM journal_watermarks')[0]?.values ?? []) {
        watermarks.set(String(journal), Number(offset));
      }
      const applied = new Map<string, number>();
      const entries: ParsedEntry[] = [];
      for (const name of listJournals(this.journalDir)) {
        try {
          const chunk = readJournal(this.journalDir, name, watermarks.get(name) ?? 0);
          entries.push(...chunk.entries);
          applied.set(name, chunk.end);
        } catch (error) {
          if (!isMissing(error)) throw error; // gone: folded into a newer snapshot, caught below
        }
      }
      // The file this state corresponds to: none once a corrupt one was moved aside.
      const expected = corrupt && !corruptKept ? null : snapshot.identity;
      if (snapshotIdentity(this.snapshotPath) !== expected && attempt < 20) {
        db.close();
        continue;
      }
      this.applyEntries(db, schema, entries);
      this.reloads += 1;
      this.db?.close();
      this.db = db;
      this.schema = schema;
      this.applied = applied;
      this.snapshotId = expected;
      this.snapshotBytes = expected === null ? 0 : (snapshot.bytes?.length ?? 0);
      this.corruptSnapshot = corruptKept;
      this.changes.markSeen(counter);
      this.lastFullLook = Date.now();
      return true;
    }
  }

  /** Applies entries in stamp order; `validated`: the ops passed `Schema.validate` already (this Store's own write). */
  private applyEntries(target: StoreDatabase, schema: Schema, entries: ParsedEntry[], validated = false): void {
    if (entries.length === 0) return;
    entries.sort(byStamp);
    const run = (sql: string, params: SqlValue[]) => target.run(sql, params);
    target.writing(() => {
      for (const entry of entries) {
        const skip = (op: WriteOp, error: unknown) => log.warn(`skipping op of ${entry.id}: ${errorMessage(error)}`);
        for (const op of entry.ops) this.tableVersions.set(op.table, (this.tableVersions.get(op.table) ?? 0) + 1);
        const ops = validated ? entry.ops : entry.ops.filter((op) => validOp(schema, op, skip));
        applyOps(run, ops, skip);
      }
    });
  }
}

function validOp(schema: Schema, op: WriteOp, invalid: (op: WriteOp, error: unknown) => void): boolean {
  try {
    schema.validate(op);
    return true;
  } catch (error) {
    invalid(op, error);
    return false;
  }
}
