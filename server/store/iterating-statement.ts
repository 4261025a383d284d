import type { SqlStatement } from './sql-surface.js';
import type { SqlValue } from './write-op.js';

/**
 * sql.js's statement surface (bind, then step through rows) over an engine whose statements hand
 * out their rows as an iterator: better-sqlite3's and node:sqlite's.
 */
export abstract class IteratingStatement implements SqlStatement {
  private params: SqlValue[] = [];
  private rows: Iterator<unknown> | undefined;
  private row: unknown[] = [];

  /** The rows of the statement run with `params`, each an array of column values. */
  protected abstract rowsOf(params: SqlValue[]): Iterator<unknown>;
  abstract getColumnNames(): string[];
  abstract run(params: SqlValue[]): void;

  bind(params: SqlValue[]): true {
    this.params = params;
    return true;
  }

  step(): boolean {
    this.rows ??= this.rowsOf(this.params);
    const next = this.rows.next();
    if (next.done) {
      this.rows = undefined;
      return false;
    }
    this.row = next.value as unknown[];
    return true;
  }

  get(): unknown[] {
    return this.row;
  }

  reset(): true {
    this.rows?.return?.();
    this.rows = undefined;
    this.params = [];
    return true;
  }

  free(): true {
    return this.reset();
  }
}
