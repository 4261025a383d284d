/**
 * The embedded store of a data dir: the database file where the engine writes one (better-sqlite3,
 * node:sqlite), the sql.js store where it cannot. See server/store/README.md.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
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
    if (!fs.existsSync(file)) {
      const release = lockDataDir(dataDir, false);
      try {
        const claimed = fs.existsSync(file); // by another process meanwhile
        if (!claimed && holdsJournals(dataDir)) importLegacy(dataDir, file, engine);
        else if (!claimed) fs.closeSync(fs.openSync(file, 'a'));
      } finally {
        release();
      }
    }
    return SqliteStore.open({ dataDir, engine, fsync: options.fsync });
  },
};
