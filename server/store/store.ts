/**
 * The embedded store of a data dir: the database file where the engine writes one (better-sqlite3,
 * node:sqlite), the sql.js store where it cannot. See server/store/README.md.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { logger } from '../log.js';
import { JOURNALS, liveSqljsProcess } from './journal.js';
import { holdsJournals, importLegacy } from './legacy-import.js';
import { loadSqlEngine, type SqlEngine } from './sql-engine.js';
import { SqljsStore } from './sqljs-store.js';
import { DATABASE_FILE, SqliteStore } from './sqlite-store.js';
import type { Store as StoreContract } from './store-interface.js';
import { LOCK_FILE, withLock } from './write-lock.js';

export type { Row, SqlValue, WriteOp } from './ops.js';
export type Store = StoreContract;
export { SqljsStore } from './sqljs-store.js';

const log = logger('store');

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
   * store's files into one, under the journal lock (so that no sql.js process starts on it
   * meanwhile). While a sql.js process has the dir open, it joins that store on sql.js instead
   * (saying so), until none is left.
   */
  open: async (options: StoreOptions): Promise<EmbeddedStore> => {
    const engine = options.engine ?? (await loadSqlEngine());
    const dataDir = path.resolve(options.dataDir);
    fs.mkdirSync(dataDir, { recursive: true });
    if (!engine.openFile) return SqljsStore.open({ ...options, dataDir });
    const file = path.join(dataDir, DATABASE_FILE);
    if (!fs.existsSync(file)) {
      const sqljs = withLock(path.join(dataDir, LOCK_FILE), () => {
        if (fs.existsSync(file)) return undefined;
        const live = liveSqljsProcess(path.join(dataDir, JOURNALS));
        if (live !== undefined) return live;
        if (holdsJournals(dataDir)) importLegacy(dataDir, file, engine);
        else fs.closeSync(fs.openSync(file, 'a'));
        return undefined;
      });
      if (sqljs !== undefined) {
        log.info(`process ${sqljs} has this data dir's store open on sql.js (VS Code 1.101-1.102): this process joins it there; the next one to open it when no such process is left moves it into ${DATABASE_FILE}`);
        return SqljsStore.open({ ...options, dataDir });
      }
    }
    return SqliteStore.open({ dataDir, engine, fsync: options.fsync });
  },
};
