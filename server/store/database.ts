/**
 * One SQLite connection (sql-engine.ts: better-sqlite3, node:sqlite or sql.js) as a store uses it:
 * the database file's (sqlite-store.ts) or one in memory (the sql.js store's, PostgreSQL's read
 * model). A query runs only if SQLite compiles it to a program that writes nothing (its `EXPLAIN`,
 * read once per statement text: no write transaction, no opcode that changes the connection), so
 * writes go through `write()`. (`PRAGMA query_only`, toggled around each write, did the same, but
 * a flag pragma expires every prepared statement.) Statements are prepared once.
 * In memory (the default pragmas), the rollback journal is in memory and the lock exclusive
 * (with the default locking SQLite drops its page cache after every transaction and re-reads the
 * pages through sql.js's file system, ten times the cost of a write); writes run in one long
 * transaction (`writing`), committed every COMMIT_EVERY writes and before an export.
 */
import type { SqlDatabase, SqlEngine, SqlStatement } from './sql-surface.js';
import type { SqlValue } from './ops.js';

const MAX_CACHED_STATEMENTS = 200;
const COMMIT_EVERY = 200;
const PRAGMAS = 'PRAGMA journal_mode = MEMORY; PRAGMA locking_mode = EXCLUSIVE';
const READ_ONLY = 'store: query() is read-only; change data with write()';
/** Statements that would end the long transaction or change the connection. */
const CONNECTION_CONTROL = /^(BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE|ATTACH|DETACH|VACUUM)\b/i;
/** A pragma that only reads: a bare name, or one of these with an argument. */
const READ_PRAGMA =
  /^PRAGMA\s+(?:\w+\.)?(?:\w+|(?:table_info|table_xinfo|index_list|index_info|index_xinfo|foreign_key_list)\s*\([^)]*\))\s*;?\s*$/i;
/**
 * Opcodes that change the file or the connection without a write transaction. Everything that
 * changes a table or the schema opens one (`Transaction` with P2 != 0); the Insert / IdxInsert a
 * read-only program may hold fill its own ephemeral tables (IN lists, DISTINCT, sorting).
 */
const CONNECTION_OPCODES = new Set([
  'AutoCommit',
  'Savepoint',
  'Vacuum',
  'IncrVacuum',
  'JournalMode',
  'Checkpoint',
  'SqlExec',
  'VBegin',
  'VUpdate',
  'VCreate',
  'VDestroy',
]);
/** White space and comments before the first token, as SQLite skips them. */
const LEADING_SPACE_AND_COMMENTS = /^(?:\s|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*/;

export class StoreDatabase {
  private readonly statements = new Map<string, SqlStatement>();
  /** Whether each statement text `all` was given compiles to a read-only program. */
  private readonly readOnly = new Map<string, boolean>();
  private inTransaction = false;
  private uncommitted = 0;

  /** `pragmas`: the in-memory database's by default; a database file sets its own. */
  constructor(
    readonly db: SqlDatabase,
    pragmas = PRAGMAS,
  ) {
    db.exec(pragmas);
  }

  /** An empty database in memory. */
  static create(engine: SqlEngine): StoreDatabase {
    const db = engine.open();
    try {
      return new StoreDatabase(db);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** Runs `change` inside the long transaction. */
  writing<T>(change: (db: SqlDatabase) => T): T {
    try {
      if (!this.inTransaction) {
        this.run('BEGIN', []);
        this.inTransaction = true;
      }
      return change(this.db);
    } finally {
      if (++this.uncommitted >= COMMIT_EVERY) this.commit();
    }
  }

  /** Runs SQL that manages its own transactions (migrations). */
  migrating<T>(change: (db: SqlDatabase) => T): T {
    this.commit();
    return change(this.db);
  }

  commit(): void {
    this.uncommitted = 0;
    if (!this.inTransaction) return;
    this.inTransaction = false;
    this.run('COMMIT', []);
  }

  /** Runs one statement, prepared once (inside `writing` for one that changes rows). */
  run(sql: string, params: SqlValue[]): void {
    this.prepared(sql).run(params);
  }

  /** Rows of a read-only statement; one that would change the database or the connection throws. */
  all<T>(sql: string, params: SqlValue[]): T[] {
    const head = sql.replace(LEADING_SPACE_AND_COMMENTS, '');
    if (CONNECTION_CONTROL.test(head) || (/^PRAGMA\b/i.test(head) && !READ_PRAGMA.test(head)))
      throw new Error(READ_ONLY);
    if (!this.compilesReadOnly(sql, head, params)) throw new Error(READ_ONLY);
    return this.prepared(sql).all(params) as T[];
  }

  /**
   * Whether the first statement of `sql` (the only one `prepare` compiles and `all` runs) writes
   * nothing: no write transaction and no connection opcode in its program. EXPLAIN runs nothing
   * (it takes the statement's parameters only to compile).
   */
  private compilesReadOnly(sql: string, head: string, params: SqlValue[]): boolean {
    if (/^EXPLAIN\b/i.test(head)) return true;
    let verdict = this.readOnly.get(sql);
    if (verdict !== undefined) return verdict;
    let explain: SqlStatement;
    try {
      explain = this.db.prepare(`EXPLAIN ${sql}`);
    } catch {
      this.prepared(sql); // throws SQLite's own message for SQL that does not compile
      return false;
    }
    try {
      const program = explain.all(params) as Array<{ opcode: string; p2: number }>;
      verdict = !program.some(
        ({ opcode, p2 }) => CONNECTION_OPCODES.has(opcode) || (opcode === 'Transaction' && p2 !== 0),
      );
    } finally {
      explain.free();
    }
    if (this.readOnly.size >= MAX_CACHED_STATEMENTS) this.readOnly.clear();
    this.readOnly.set(sql, verdict);
    return verdict;
  }

  private prepared(sql: string): SqlStatement {
    let statement = this.statements.get(sql);
    if (!statement) {
      if (this.statements.size >= MAX_CACHED_STATEMENTS) this.freeStatements();
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
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
