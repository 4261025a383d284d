/** better-sqlite3 behind the store's surface (sql-surface.ts), which is its own shape. */
import type BetterSqlite3 from 'better-sqlite3';
import { objectsOf, type SqlDatabase, type SqlEngine, type SqlStatement } from './sql-surface.js';
import type { SqlValue } from './write-op.js';

type Native = typeof BetterSqlite3;

/** better-sqlite3 refuses `all` on a statement that returns no rows and `run` on one that does: both run either. */
function statementOf(statement: BetterSqlite3.Statement<SqlValue[], unknown[]>): SqlStatement {
  const names = statement.reader ? statement.columns().map((column) => column.name) : [];
  if (statement.reader) statement.raw(true);
  return {
    all: (params) => (statement.reader ? objectsOf(names, statement.all(...params)) : (statement.run(...params), [])),
    run: (params) => void (statement.reader ? statement.all(...params) : statement.run(...params)),
    free: () => undefined,
  };
}

function databaseOf(db: BetterSqlite3.Database): SqlDatabase {
  return {
    exec: (sql) => void db.exec(sql),
    prepare: (sql) => statementOf(db.prepare<SqlValue[], unknown[]>(sql)),
    close: () => void db.close(),
  };
}

/** Throws when better-sqlite3 is not installed or not built for this runtime. */
export async function nativeEngine(): Promise<SqlEngine> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS native addon, optional: loaded (or failing) only here
  const Database = require('better-sqlite3') as Native;
  new Database(':memory:').close(); // the native binding loads here, not at the first open
  return {
    name: 'better-sqlite3',
    open: () => databaseOf(new Database(':memory:')),
    openFile: (file) => databaseOf(new Database(file)),
  };
}
