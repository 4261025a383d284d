/**
 * The embedded store of a data dir: the database file where the engine writes one (better-sqlite3,
 * node:sqlite), the sql.js store where it cannot. See server/store/README.md.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createClaimed, DamagedStoreError, emptiedFile, identity, moveAside } from './damaged-file.js';
import { lockDataDir } from './data-dir-lock.js';
import { holdsJournals, importLegacy } from './legacy-import.js';
import { loadSqlEngine, type SqlEngine } from './sql-engine.js';
import { SqljsStore } from './sqljs-store.js';
import { DATABASE_FILE, SqliteStore } from './sqlite-store.js';
import type { Store as StoreContract } from './store-interface.js';

export type { Row, SqlValue, WriteOp } from './ops.js';
export type Store = StoreContract;
export { SqljsStore } from './sqljs-store.js';

export type EmbeddedStore = SqliteStore | SqljsStore;

export interface StoreOptions {
  dataDir: string;
  /** Sync writes for `durable()` (group commit; default true). */
  fsync?: boolean;
  /** The SQLite engine (default: this process's, see sql-engine.ts). */
  engine?: SqlEngine;
  /** sql.js store: compact past this many journal bytes (see SqljsStore). */
  compactBytes?: number;
  /**
   * Read every page of the database file first (`PRAGMA quick_check`, default true), so that a
   * damaged file is moved aside before anything is served from it or written to it. False for a
   * command that only reads: it does not pay for reading the whole file, and a damaged page it meets
   * fails that read (it moves nothing aside; the next gateway or writer does).
   */
  verify?: boolean;
}

export const Store = {
  /**
   * A process with a real SQLite claims a new data dir for the database file, or moves the sql.js
   * store's files into one, under the data dir's lock (so that no sql.js process starts on it
   * meanwhile); while a sql.js process holds the dir, it throws, naming that process.
   */
  open: async (options: StoreOptions): Promise<EmbeddedStore> => {
    const engine = options.engine ?? (await loadSqlEngine());
    const dataDir = path.resolve(options.dataDir);
    fs.mkdirSync(dataDir, { recursive: true });
    if (!engine.openFile) return SqljsStore.open({ ...options, dataDir });
    const file = path.join(dataDir, DATABASE_FILE);
    const open = () => SqliteStore.open({ dataDir, engine, fsync: options.fsync, verify: options.verify });
    const emptied = emptiedFile(file);
    if (emptied)
      return replaceDamaged(dataDir, file, emptied, identity(file), open, () => emptiedFile(file) !== undefined);
    if (!fs.existsSync(file)) {
      const release = lockDataDir(dataDir, false);
      try {
        if (fs.existsSync(file)) return open(); // claimed by another process meanwhile
        if (holdsJournals(dataDir)) importLegacy(dataDir, file, engine);
        else createClaimed(file);
        return open(); // under the lock: no other process judges the file while it is being made
      } finally {
        release();
      }
    }
    const seen = identity(file);
    try {
      return open();
    } catch (error) {
      if (!(error instanceof DamagedStoreError)) throw error;
      return replaceDamaged(dataDir, file, error.message, seen, open);
    }
  },
};

/**
 * Under the data dir's lock: moves the damaged file aside when it is still the one judged so (else
 * another process replaced it meanwhile) and still `damaged`, claims a new one and opens it.
 */
function replaceDamaged(
  dataDir: string,
  file: string,
  reason: string,
  seen: string | undefined,
  open: () => SqliteStore,
  damaged = () => true,
): SqliteStore {
  const release = lockDataDir(dataDir, false);
  try {
    if (identity(file) === seen && damaged()) {
      moveAside(file, reason);
      createClaimed(file);
    }
    return open();
  } finally {
    release();
  }
}
