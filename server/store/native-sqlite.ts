/**
 * better-sqlite3 behind the store's SqlDatabase surface (sql-engine.ts), as sql.js behaves:
 * - a parameter left out binds NULL (better-sqlite3 throws: the statement is run again with one
 *   more NULL until it has them all; only EXPLAIN's read-only check leaves them out, once per text);
 * - `prepare` compiles the first statement of a text that has several (better-sqlite3 refuses it).
 */
import type BetterSqlite3 from 'better-sqlite3';
import { IteratingStatement } from './iterating-statement.js';
import { firstStatement } from './sql-text.js';
import type { SqlDatabase, SqlEngine } from './sql-surface.js';
import type { SqlValue } from './write-op.js';

type Native = typeof BetterSqlite3;

const TOO_FEW = /Too few parameter values/;
const SEVERAL_STATEMENTS = /more than one statement/;
const MAX_PARAMETERS = 32_766;

/** Runs `use(params)`, with NULLs added while better-sqlite3 says there are too few. */
function withMissingAsNull<T>(params: SqlValue[], use: (params: SqlValue[]) => T): T {
  for (let padded = params; ; padded = [...padded, null]) {
    try {
      return use(padded);
    } catch (error) {
      if (!(error instanceof RangeError && TOO_FEW.test(error.message)) || padded.length >= MAX_PARAMETERS) throw error;
    }
  }
}

class NativeStatement extends IteratingStatement {
  constructor(private readonly statement: BetterSqlite3.Statement<SqlValue[], unknown[]>) {
    super();
  }

  protected rowsOf(params: SqlValue[]): Iterator<unknown> {
    return withMissingAsNull(params, (all) => this.statement.raw(true).iterate(...all));
  }

  getColumnNames(): string[] {
    return this.statement.columns().map((column) => column.name);
  }

  run(params: SqlValue[]): void {
    withMissingAsNull(params, (all) => (this.statement.reader ? this.statement.raw(true).all(...all) : this.statement.run(...all)));
  }
}

class NativeDatabase implements SqlDatabase {
  constructor(private readonly db: BetterSqlite3.Database) {}

  prepare(sql: string): NativeStatement {
    try {
      return new NativeStatement(this.db.prepare<SqlValue[], unknown[]>(sql));
    } catch (error) {
      if (!SEVERAL_STATEMENTS.test(String((error as Error).message))) throw error;
      return new NativeStatement(this.db.prepare<SqlValue[], unknown[]>(firstStatement(sql)));
    }
  }

  exec(sql: string, params: SqlValue[] = []): Array<{ columns: string[]; values: unknown[][] }> {
    let statement: BetterSqlite3.Statement<SqlValue[], unknown[]>;
    try {
      statement = this.db.prepare<SqlValue[], unknown[]>(sql);
    } catch (error) {
      // Several statements (a migration): better-sqlite3 runs them with exec, which returns no rows.
      if (params.length > 0 || !SEVERAL_STATEMENTS.test(String((error as Error).message))) throw error;
      this.db.exec(sql);
      return [];
    }
    if (!statement.reader) {
      withMissingAsNull(params, (all) => statement.run(...all));
      return [];
    }
    const values = withMissingAsNull(params, (all) => statement.raw(true).all(...all));
    return values.length > 0 ? [{ columns: statement.columns().map((column) => column.name), values }] : [];
  }

  run(sql: string, params: SqlValue[] = []): this {
    this.exec(sql, params);
    return this;
  }

  close(): void {
    this.db.close();
  }
}

/** Throws when better-sqlite3 is not installed or not built for this runtime. */
export async function nativeEngine(): Promise<SqlEngine> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS native addon, optional: loaded (or failing) only here
  const Database = require('better-sqlite3') as Native;
  new Database(':memory:').close(); // the native binding loads here, not at the first open
  return {
    name: 'better-sqlite3',
    open: () => new NativeDatabase(new Database(':memory:')),
    openFile: (file) => new NativeDatabase(new Database(file)),
  };
}
