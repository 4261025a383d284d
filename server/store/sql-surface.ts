/**
 * The part of an SQLite connection the store uses (sql.js's Database surface), declared apart from
 * the engines that give it (sql-engine.ts chooses one; native-sqlite.ts, node-sqlite.ts).
 */
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
