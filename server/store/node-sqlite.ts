/**
 * Node's own SQLite (`node:sqlite`) behind the store's SqlDatabase surface, as sql.js behaves. It
 * needs statements with setReturnArrays, columns and iterate (Node 24; Node 22.23 here). A parameter
 * left out binds NULL and `prepare` compiles the first of several statements, as in sql.js. What it lacks is a file image in
 * and out of memory:
 * - a database opens from an image by attaching it (a temporary file) and copying its schema, rows
 *   and user_version into the in-memory database;
 * - `export` is a VACUUM INTO a temporary file, read back.
 * Loading the module makes Node print an ExperimentalWarning; that one warning is not passed on
 * (the CLI's read-only commands print nothing on stderr).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { IteratingStatement } from './iterating-statement.js';
import { quote } from './ops.js';
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
  readonly isTransaction: boolean;
  prepare(sql: string): StatementSync;
  exec(sql: string): void;
  close(): void;
}
interface Sqlite {
  DatabaseSync: new (location: string) => DatabaseSync;
}

/** A file name as an SQL string literal. */
const literal = (text: string): string => `'${text.replace(/'/g, "''")}'`;

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

  export(): Uint8Array {
    return withTemporaryFile((file) => {
      this.db.exec(`VACUUM INTO ${literal(file)}`);
      return new Uint8Array(fs.readFileSync(file));
    });
  }

  close(): void {
    this.db.close();
  }

  /** Copies the database in `bytes` (schema, rows, user_version) into this empty one. */
  load(bytes: Uint8Array): void {
    withTemporaryFile((file) => {
      fs.writeFileSync(file, bytes);
      this.db.exec(`ATTACH ${literal(file)} AS image`);
      try {
        const objects = this.db
          .prepare("SELECT type, name, sql FROM image.sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY type <> 'table', rowid")
          .all() as Array<{ type: string; name: string; sql: string }>;
        this.db.exec('BEGIN');
        for (const { type, name, sql } of objects) {
          this.db.exec(sql);
          if (type === 'table') this.db.exec(`INSERT INTO main.${quote(name)} SELECT * FROM image.${quote(name)}`);
        }
        if (objects.some((o) => /\bAUTOINCREMENT\b/i.test(o.sql))) this.db.exec('INSERT INTO main.sqlite_sequence SELECT * FROM image.sqlite_sequence');
        const version = Number((this.db.prepare('PRAGMA image.user_version').get() as { user_version: number }).user_version);
        this.db.exec(`PRAGMA main.user_version = ${Number.isInteger(version) ? version : 0}`);
        this.db.exec('COMMIT');
      } finally {
        if (this.db.isTransaction) this.db.exec('ROLLBACK');
        this.db.exec('DETACH image');
      }
    });
  }
}

/** A path in a new folder only this user can read (the image holds the store's rows), removed after `use`. */
function withTemporaryFile<T>(use: (file: string) => T): T {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'grimoire-sqlite-'));
  try {
    return use(path.join(folder, 'image.sqlite'));
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
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
    open: (bytes) => {
      const db = new NodeDatabase(new DatabaseSync(':memory:'));
      if (bytes) {
        try {
          db.load(bytes);
        } catch (error) {
          db.close();
          throw error;
        }
      }
      return db;
    },
    openFile: (file) => new NodeDatabase(new DatabaseSync(file)),
  };
}
