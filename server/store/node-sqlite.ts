/**
 * Node's own SQLite (`node:sqlite`, Node 22.13 and later, VS Code 1.101 and later) behind the
 * store's surface (sql-surface.ts), which is its own shape; its rows (objects without a prototype)
 * are copied into plain ones. Loading the module makes Node print an ExperimentalWarning; that one
 * warning is not passed on (the CLI's read-only commands print nothing on stderr).
 */
import type { SqlDatabase, SqlEngine, SqlRow } from './sql-surface.js';
import type { SqlValue } from './write-op.js';

/** The part of `node:sqlite` used here (this project's @types/node, for Node 20, has none). */
interface StatementSync {
  run(...params: SqlValue[]): unknown;
  all(...params: SqlValue[]): SqlRow[];
}
interface DatabaseSync {
  prepare(sql: string): StatementSync;
  exec(sql: string): void;
  close(): void;
}
interface Sqlite {
  DatabaseSync: new (location: string) => DatabaseSync;
}

function databaseOf(db: DatabaseSync): SqlDatabase {
  return {
    exec: (sql) => db.exec(sql),
    prepare: (sql) => {
      const statement = db.prepare(sql);
      return {
        all: (params) => {
          const rows = statement.all(...params);
          const names = rows.length > 0 ? Object.keys(rows[0]!) : [];
          return rows.map((row) => {
            const copy: SqlRow = {};
            for (const name of names) copy[name] = row[name];
            return copy;
          });
        },
        run: (params) => void statement.run(...params),
        free: () => undefined,
      };
    },
    close: () => db.close(),
  };
}

/** `node:sqlite` without the ExperimentalWarning that loading it prints. */
function loadQuietly(): Sqlite {
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (/SQLite is an experimental feature/.test(text)) return;
    return (emitWarning as (...args: unknown[]) => void).call(this, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    // A built-in module only some runtimes have: loaded (or failing) only here.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
    return require('node:sqlite') as Sqlite;
  } finally {
    process.emitWarning = emitWarning;
  }
}

/** Throws where this Node has no `node:sqlite` (Node 20; Node 22 before 22.13 without its flag). */
export function nodeSqliteEngine(): SqlEngine {
  const { DatabaseSync } = loadQuietly();
  return {
    name: 'node:sqlite',
    open: () => databaseOf(new DatabaseSync(':memory:')),
    openFile: (file) => databaseOf(new DatabaseSync(file)),
  };
}
