/**
 * Node's own SQLite (`node:sqlite`) behind the store's SqlDatabase surface, as sql.js behaves. It
 * needs statements with setReturnArrays, columns and iterate (Node 24; Node 22.23 here). A parameter
 * left out binds NULL and `prepare` compiles the first of several statements, as in sql.js.
 * Loading the module makes Node print an ExperimentalWarning; that one warning is not passed on
 * (the CLI's read-only commands print nothing on stderr).
 */
import { IteratingStatement } from './iterating-statement.js';
import { firstStatement, holdsNoStatement } from './sql-text.js';
import type { SqlDatabase, SqlEngine } from './sql-surface.js';
import type { SqlValue } from './write-op.js';

/** The part of `node:sqlite` used here (this project's @types/node, for Node 20, has none). */
interface StatementSync {
  run(...params: SqlValue[]): unknown;
  all(...params: SqlValue[]): unknown[];
  get(...params: SqlValue[]): unknown;
  iterate(...params: SqlValue[]): Iterator<unknown>;
  columns(): Array<{ name: string }>;
  setReturnArrays(enabled: boolean): void;
}
interface DatabaseSync {
  prepare(sql: string): StatementSync;
  exec(sql: string): void;
  close(): void;
}
interface Sqlite {
  DatabaseSync: new (location: string) => DatabaseSync;
}

class NodeStatement extends IteratingStatement {
  constructor(private readonly statement: StatementSync) {
    super();
    statement.setReturnArrays(true);
  }

  protected rowsOf(params: SqlValue[]): Iterator<unknown> {
    return this.statement.iterate(...params);
  }

  getColumnNames(): string[] {
    return this.statement.columns().map((column) => column.name);
  }

  run(params: SqlValue[]): void {
    this.statement.run(...params);
  }
}

class NodeDatabase implements SqlDatabase {
  constructor(private readonly db: DatabaseSync) {}

  prepare(sql: string): NodeStatement {
    return new NodeStatement(this.db.prepare(sql));
  }

  exec(sql: string, params: SqlValue[] = []): Array<{ columns: string[]; values: unknown[][] }> {
    const first = firstStatement(sql);
    if (!holdsNoStatement(sql.slice(first.length))) {
      // Several statements (a migration): run them all; like sql.js with parameters, refuse.
      if (params.length > 0) throw new Error('store: parameters for several statements');
      this.db.exec(sql);
      return [];
    }
    const statement = this.db.prepare(first);
    const columns = statement.columns().map((column) => column.name);
    if (columns.length === 0) {
      statement.run(...params);
      return [];
    }
    statement.setReturnArrays(true);
    const values = statement.all(...params) as unknown as unknown[][];
    return values.length > 0 ? [{ columns, values }] : [];
  }

  run(sql: string, params: SqlValue[] = []): this {
    this.exec(sql, params);
    return this;
  }

  close(): void {
    this.db.close();
  }
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
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a built-in module only some runtimes have: loaded (or failing) only here
    return require('node:sqlite') as Sqlite;
  } finally {
    process.emitWarning = emitWarning;
  }
}

/** Throws where this Node has no `node:sqlite`, or one without what the store needs. */
export function nodeSqliteEngine(): SqlEngine {
  const { DatabaseSync } = loadQuietly();
  const probe = new DatabaseSync(':memory:');
  try {
    const statement = probe.prepare('SELECT 1 AS one');
    if (typeof statement.setReturnArrays !== 'function' || typeof statement.columns !== 'function' || typeof statement.iterate !== 'function') {
      throw new Error('node:sqlite here has no setReturnArrays, columns or iterate (Node 24 and recent Node 22 releases have them)');
    }
  } finally {
    probe.close();
  }
  return {
    name: 'node:sqlite',
    open: () => new NodeDatabase(new DatabaseSync(':memory:')),
    openFile: (file) => new NodeDatabase(new DatabaseSync(file)),
  };
}
