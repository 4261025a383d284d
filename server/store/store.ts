/**
 * The embedded store of a data dir, in the format its engine can share (see server/store/README.md).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { logger } from '../log.js';
import { JournaledStore, type StoreOptions } from './journaled/journaled-store.js';
import { holdsLegacyOnly, liveLegacyWriter } from './legacy-import.js';
import { loadSqlEngine } from './sql-engine.js';
import { DATABASE_FILE, SqliteStore } from './sqlite-store.js';
import type { Store as StoreContract } from './store-interface.js';

export type { Row, SqlValue, WriteOp } from './ops.js';
export type Store = StoreContract;
export { JournaledStore, type StoreOptions } from './journaled/journaled-store.js';

const log = logger('store');

export type EmbeddedStore = SqliteStore | JournaledStore;

/**
 * Opens the store of a data dir: its database file where the engine writes one (better-sqlite3,
 * node:sqlite), the journaled format where it cannot (sql.js) or while a process of that format still
 * writes the dir (the file takes over once it is gone). See server/store/README.md.
 */
export const Store = {
  open: async (options: StoreOptions): Promise<EmbeddedStore> => {
    const engine = options.engine ?? (await loadSqlEngine());
    const dataDir = path.resolve(options.dataDir);
    const file = path.join(dataDir, DATABASE_FILE);
    const legacyWriter = holdsLegacyOnly(dataDir, file) ? liveLegacyWriter(dataDir) : undefined;
    if (engine.openFile && legacyWriter === undefined) return SqliteStore.open({ dataDir, engine, fsync: options.fsync });
    if (fs.existsSync(file)) {
      throw new Error(`store: ${file} is a SQLite database file, which ${engine.name} cannot share with other processes; run on a Node whose node:sqlite the store can use (Node 24, recent Node 22) or with better-sqlite3`);
    }
    if (legacyWriter !== undefined) log.info(`process ${legacyWriter} writes this data dir's journals: the store stays journaled until it is gone`);
    return JournaledStore.open({ ...options, engine });
  },
};
