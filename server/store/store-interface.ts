/**
 * What the rest of the server may ask of a store, whatever keeps the data: the SQLite file
 * (store.ts, the embedded default) or PostgreSQL for a team (postgres/pg-store.ts). Writes are
 * logical ops (server/store/ops.ts); queries are read-only SQL over everything committed.
 */
import type { Row, SqlValue, WriteOp } from './ops.js';

export type { Row, SqlValue, WriteOp } from './ops.js';

/** A read that could not reach the database (PostgreSQL down): the request may be tried again. */
export class StoreUnavailableError extends Error {}

export interface Store {
  /** A local folder for files that belong with the data (artifacts, models). */
  readonly dataDir: string;
  /**
   * True when processes on other machines share this store (PostgreSQL): what every replica must
   * read (artifact bodies) then goes in the store rather than under `dataDir`.
   */
  readonly spansMachines?: boolean;
  /**
   * Commits one op: when it returns, every query of this process sees it; the embedded store's
   * other processes see it on their next query and a killed process does not lose it (PostgreSQL:
   * other replicas see it within a second, a killed replica keeps it once `acknowledged()` resolved).
   * Surviving power loss is acknowledged by `durable()`.
   * Throws, before committing anything, on an unknown table or column or a missing key.
   */
  write(op: WriteOp): void;
  /** Like `write`, for several ops that commit (and survive a crash) together. */
  writeMany(ops: WriteOp[]): void;
  /**
   * Resolves once every write made before the call is on stable storage (group commit: one
   * flush covers every write since the last); rejects if that flush failed.
   */
  durable(): Promise<void>;
  /**
   * A number that moves whenever `table`'s rows may have changed, by this process or another,
   * as of now (so a result read from the table can be kept while it stays the same). Absent: no
   * cheap way to tell; read again.
   */
  tableVersion?(table: string): number;
  /** Read-only SQL over everything committed so far; a statement that changes rows throws. */
  query<T = Row>(sql: string, params?: SqlValue[]): T[];
  /**
   * A query that can wait, for the tables that grow with use (the activity log, events, hints,
   * recommendations, stored results, token counts...: postgres/pg-reads.ts): PostgreSQL runs it in
   * the database, after this process's writes so far, instead of keeping those tables in memory
   * (there `query` refuses them); the embedded store answers at once.
   */
  read<T = Row>(sql: string, params?: SqlValue[]): Promise<T[]>;
  /**
   * Resolves when the writes made so far may be acknowledged to a client: committed where a killed
   * process would lose them otherwise (PostgreSQL), or queued while that database is unreachable.
   * Absent: a write is acknowledged when it returns.
   */
  acknowledged?(): Promise<void>;
  /** Flushes, releases the files or connections; idempotent. Using the store afterwards throws. */
  close(): void | Promise<void>;
}
