/**
 * One sql.js database as the Store uses it: kept `query_only` (a query that would change rows
 * fails in SQLite itself, no savepoint needed) except inside `writing`; its rollback journal in
 * memory and its lock exclusive (the file lives in sql.js's in-memory file system and nothing else
 * opens it: with the default locking SQLite drops its page cache after every transaction and
 * re-reads the pages through that file system, ten times the cost of a write); writes run in one
 * long transaction, committed every COMMIT_EVERY writes and before an export (a commit copies the
 * changed pages into that file system); statements are prepared once. Durability is the
 * journals' job, not this file's.
 */
import type { Database, SqlJsStatic, Statement } from 'sql.js';
import type { SqlValue } from './ops.js';

const MAX_CACHED_STATEMENTS = 200;
const COMMIT_EVERY = 200;
const PRAGMAS = 'PRAGMA journal_mode = MEMORY; PRAGMA locking_mode = EXCLUSIVE; PRAGMA query_only = ON';
const READ_ONLY = 'store: query() is read-only; change data with write()';
const LEADING_SPACE_AND_COMMENTS = /^(?:\s|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*/;
/** Statements `query_only` lets through that would end the long transaction or change the connection. */
const CONNECTION_CONTROL = /^(BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE|ATTACH|DETACH|VACUUM)\b/i;
/** A pragma that only reads: a bare name, or one of these with an argument. */
const READ_PRAGMA = /^PRAGMA\s+(?:\w+\.)?(?:\w+|(?:table_info|table_xinfo|index_list|index_info|index_xinfo|foreign_key_list)\s*\([^)]*\))\s*;?\s*$/i;

export class StoreDatabase {
  private readonly statements = new Map<string, Statement>();
  private inTransaction = false;
  private uncommitted = 0;

  constructor(readonly db: Database) {
    db.exec(PRAGMAS);
  }

  static create(SQL: SqlJsStatic, bytes?: Uint8Array): StoreDatabase {
    const db = bytes ? new SQL.Database(bytes) : new SQL.Database();
    try {
      return new StoreDatabase(db);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** Runs `change` with writes allowed, inside the long transaction. */
  writing<T>(change: (db: Database) => T): T {
    this.run('PRAGMA query_only = OFF', []);
    try {
      if (!this.inTransaction) {
        this.run('BEGIN', []);
        this.inTransaction = true;
      }
      return change(this.db);
    } finally {
      this.run('PRAGMA query_only = ON', []);
      if (++this.uncommitted >= COMMIT_EVERY) this.commit();
    }
  }

  /** Runs SQL that manages its own transactions (migrations), with writes allowed. */
  migrating<T>(change: (db: Database) => T): T {
    this.commit();
    this.run('PRAGMA query_only = OFF', []);
    try {
      return change(this.db);
    } finally {
      this.run('PRAGMA query_only = ON', []);
    }
  }

  commit(): void {
    this.uncommitted = 0;
    if (!this.inTransaction) return;
    this.inTransaction = false;
    this.run('COMMIT', []);
  }

  /** Runs one statement, prepared once (inside `writing` for one that changes rows). */
  run(sql: string, params: SqlValue[]): void {
    const statement = this.prepared(sql);
    try {
      statement.run(params);
    } finally {
      statement.reset();
    }
  }

  /** Rows of a read-only statement; one that would change the database or the connection throws. */
  all<T>(sql: string, params: SqlValue[]): T[] {
    const head = sql.replace(LEADING_SPACE_AND_COMMENTS, '');
    if (CONNECTION_CONTROL.test(head) || (/^PRAGMA\b/i.test(head) && !READ_PRAGMA.test(head))) throw new Error(READ_ONLY);
    const statement = this.prepared(sql);
    const rows: T[] = [];
    try {
      statement.bind(params);
      while (statement.step()) rows.push(statement.getAsObject() as unknown as T);
    } catch (error) {
      if (/readonly database/.test(String((error as Error)?.message))) throw new Error(READ_ONLY);
      throw error;
    } finally {
      statement.reset();
    }
    return rows;
  }

  private prepared(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      if (this.statements.size >= MAX_CACHED_STATEMENTS) this.freeStatements();
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** The database file. sql.js closes and reopens the database to read it: statements and pragmas go. */
  export(): Uint8Array {
    this.commit();
    this.freeStatements();
    const bytes = this.db.export();
    this.db.exec(PRAGMAS);
    return bytes;
  }

  close(): void {
    this.freeStatements();
    this.db.close();
  }

  private freeStatements(): void {
    for (const statement of this.statements.values()) statement.free();
    this.statements.clear();
  }
}
