/**
 * The SQLite engine of this process, chosen once: better-sqlite3 (native) where it loads, else
 * Node's own `node:sqlite` (Node 22.13 and later: VS Code 1.101 and later), else sql.js
 * (WebAssembly, which cannot write a file: the sql.js store). better-sqlite3 is an optional
 * dependency: it does not load in VS Code's Electron (another ABI; the .vsix does not carry it) nor
 * where its install could not build. Falling back says why once, at debug level.
 * GRIMOIRE_STORE_ENGINE=node:sqlite or sql.js chooses one. The surface is sql-surface.ts.
 */
import initSqlJs from 'sql.js';
import { errorMessage, logger } from '../log.js';
import type { ImageEngine, SqlEngine } from './sql-surface.js';
import { SqlJsDatabase } from './sqljs-database.js';

export type { ImageDatabase, ImageEngine, SqlDatabase, SqlEngine, SqlRow, SqlStatement } from './sql-surface.js';

const log = logger('store');

export const ENGINE_VARIABLE = 'GRIMOIRE_STORE_ENGINE';

let sqlJs: Promise<ImageEngine> | undefined;

/** sql.js, loaded once per process. */
export function sqlJsEngine(): Promise<ImageEngine> {
  return (sqlJs ??= initSqlJs().then((SQL) => ({
    name: 'sql.js',
    open: (bytes?: Uint8Array) => new SqlJsDatabase(bytes ? new SQL.Database(bytes) : new SQL.Database()),
  })));
}

let loading: Promise<SqlEngine> | undefined;

/**
 * The engine for this process, chosen once: the first of better-sqlite3, node:sqlite and sql.js that loads,
 * or the one GRIMOIRE_STORE_ENGINE names.
 */
export function loadSqlEngine(env: NodeJS.ProcessEnv = process.env): Promise<SqlEngine> {
  return (loading ??= chooseEngine(env).catch((error: unknown) => {
    loading = undefined; // let the next open try again
    throw error;
  }));
}

async function chooseEngine(env: NodeJS.ProcessEnv): Promise<SqlEngine> {
  const forced = env[ENGINE_VARIABLE];
  if (forced === 'sql.js') return sqlJsEngine();
  if (forced === 'node:sqlite') return (await import('./node-sqlite.js')).nodeSqliteEngine();
  let nativeError: unknown;
  try {
    const { nativeEngine } = await import('./native-sqlite.js');
    return await nativeEngine();
  } catch (error) {
    nativeError = error;
  }
  try {
    return (await import('./node-sqlite.js')).nodeSqliteEngine();
  } catch (error) {
    log.debug(
      `store on sql.js: better-sqlite3 did not load (${firstLine(nativeError)}) nor node:sqlite ` +
        `(${firstLine(error)}); \`npm install better-sqlite3\`, or Node 22.13 or later, for a quicker store`,
    );
    return sqlJsEngine();
  }
}

const firstLine = (error: unknown): string => errorMessage(error).split('\n')[0]!;
