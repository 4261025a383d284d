/**
 * The part of an SQLite connection the store uses: better-sqlite3's and node:sqlite's own shape
 * (prepare, then `all` for rows as objects or `run`; `exec` for several statements). sql-engine.ts
 * chooses the engine; sqljs-database.ts gives sql.js this shape.
 */
import type { SqlValue } from './write-op.js';

export type SqlRow = Record<string, unknown>;

export interface SqlStatement {
  /** The rows, each an object keyed by column name. */
  all(params: SqlValue[]): SqlRow[];
  run(params: SqlValue[]): void;
  /** Releases what the engine holds for the statement (sql.js's WebAssembly memory). */
  free(): void;
}

export interface SqlDatabase {
  /** Runs every statement of `sql` (a migration, pragmas): no parameters, no rows. */
  exec(sql: string): void;
  /** Compiles the first statement of `sql`. */
  prepare(sql: string): SqlStatement;
  close(): void;
}

export interface SqlEngine {
  readonly name: 'better-sqlite3' | 'node:sqlite' | 'sql.js';
  /** An empty database in memory. */
  open(): SqlDatabase;
  /** A connection to a database file (created when missing); absent where the engine cannot write a file (sql.js). */
  openFile?(file: string): SqlDatabase;
}

/** A database in memory that comes from a file image and goes back to one: sql.js's. */
export interface ImageDatabase extends SqlDatabase {
  export(): Uint8Array;
}

export interface ImageEngine extends SqlEngine {
  readonly name: 'sql.js';
  open(bytes?: Uint8Array): ImageDatabase;
}

/**
 * Rows as plain objects keyed by `names` (the column names, once per statement) from each row's
 * values in that order: quicker than the objects the engines build (better-sqlite3's take twice
 * the time; node:sqlite's have no prototype).
 */
export function objectsOf(names: readonly string[], rows: ReadonlyArray<ArrayLike<unknown>>): SqlRow[] {
  return rows.map((values) => {
    const row: SqlRow = {};
    for (let i = 0; i < names.length; i++) row[names[i]!] = values[i];
    return row;
  });
}

/** The rows of one statement run once (a statement that is not kept). */
export function rowsOf<T = SqlRow>(db: SqlDatabase, sql: string, params: SqlValue[] = []): T[] {
  const statement = db.prepare(sql);
  try {
    return statement.all(params) as T[];
  } finally {
    statement.free();
  }
}

/** Runs one statement once. */
export function runOnce(db: SqlDatabase, sql: string, params: SqlValue[] = []): void {
  const statement = db.prepare(sql);
  try {
    statement.run(params);
  } finally {
    statement.free();
  }
}
