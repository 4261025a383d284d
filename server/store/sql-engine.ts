/**
 * The SQLite engine under the store's in-memory database: better-sqlite3 (native) where it loads,
 * sql.js (WebAssembly) everywhere else. Both hold the same SQLite database file image (a snapshot
 * written by one opens in the other), so processes on different engines share a data dir.
 * better-sqlite3 is an optional dependency: it does not load in VS Code's Electron (another ABI;
 * the .vsix does not carry it) nor where its install could not build; the store then runs on
 * sql.js and says so once, at debug level. GRIMOIRE_STORE_ENGINE=sql.js chooses sql.js.
 * The surface is the part of sql.js's Database the store uses; native-sqlite.ts gives it to
 * better-sqlite3.
 */
import initSqlJs from 'sql.js';
import { errorMessage, logger } from '../log.js';
import type { SqlValue } from './write-op.js';

export interface SqlStatement {
  bind(params: SqlValue[]): unknown;
  step(): boolean;
  get(): unknown[];
  getColumnNames(): string[];
  run(params: SqlValue[]): unknown;
  reset(): unknown;
  free(): unknown;
}

export interface SqlDatabase {
  /** Every statement of `sql`; the rows of the last one that returns rows, as sql.js gives them. */
  exec(sql: string, params?: SqlValue[]): Array<{ columns: string[]; values: unknown[][] }>;
  run(sql: string, params?: SqlValue[]): unknown;
  prepare(sql: string): SqlStatement;
  /** The database file image. */
  export(): Uint8Array;
  close(): void;
}

export interface SqlEngine {
  readonly name: 'better-sqlite3' | 'sql.js';
  /** An in-memory database, empty or from a file image. */
  open(bytes?: Uint8Array): SqlDatabase;
}

const log = logger('store');

export const ENGINE_VARIABLE = 'GRIMOIRE_STORE_ENGINE';

/** sql.js's own Database already has this surface. */
export async function sqlJsEngine(): Promise<SqlEngine> {
  const SQL = await initSqlJs();
  return { name: 'sql.js', open: (bytes) => (bytes ? new SQL.Database(bytes) : new SQL.Database()) };
}

let loading: Promise<SqlEngine> | undefined;

/** The engine for this process, chosen once: better-sqlite3 unless it does not load or GRIMOIRE_STORE_ENGINE=sql.js. */
export function loadSqlEngine(env: NodeJS.ProcessEnv = process.env): Promise<SqlEngine> {
  return (loading ??= chooseEngine(env).catch((error: unknown) => {
    loading = undefined; // let the next open try again
    throw error;
  }));
}

async function chooseEngine(env: NodeJS.ProcessEnv): Promise<SqlEngine> {
  if (env[ENGINE_VARIABLE] === 'sql.js') return sqlJsEngine();
  try {
    const { nativeEngine } = await import('./native-sqlite.js');
    return await nativeEngine();
  } catch (error) {
    log.debug(`store on sql.js: better-sqlite3 did not load (${errorMessage(error).split('\n')[0]}); \`npm install better-sqlite3\` for a quicker store`);
    return sqlJsEngine();
  }
}
