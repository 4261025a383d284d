/**
 * Logical write ops: validation against the schema and idempotent application to a database.
 * upsert = insert, or update the given columns on a key conflict; insert = INSERT OR IGNORE on
 * the key; delete = delete the rows matching every `where` column (null-safe equality);
 * deleteBefore = delete the rows whose `before` columns sort before its values (a row-value `<`).
 */
import { rowsOf, type SqlDatabase as Database } from './sql-surface.js';
import { TABLE_KEYS } from './migrations.js';
import { maskedOp } from './masked-op.js';

import { isOpKind, OP_BODY, opValues, type SqlValue, type WriteOp } from './write-op.js';

export type { Row, SqlValue, WriteOp } from './write-op.js';

/** A table or column name as an SQL identifier (SQLite and PostgreSQL quote them alike). */
export const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** Column names per table, read once from PRAGMA table_info after migrations. */
export class Schema {
  private readonly columns = new Map<string, Set<string>>();

  constructor(db: Database) {
    for (const table of Object.keys(TABLE_KEYS)) {
      this.columns.set(
        table,
        new Set(rowsOf<{ name: string }>(db, `PRAGMA table_info(${quote(table)})`).map((column) => column.name)),
      );
    }
  }

  /**
   * A writeMany batch as it is written: validated (throws like `validate`), secrets masked
   * (`maskedOp`). Empty when there is nothing to write.
   */
  prepareBatch(ops: WriteOp[]): WriteOp[] {
    if (!Array.isArray(ops)) throw new Error('store: writeMany needs an array of ops');
    for (const op of ops) this.validate(op);
    return ops.map(maskedOp);
  }

  /** Throws an Error naming the offending table / column / value. */
  validate(op: WriteOp): void {
    if (op === null || typeof op !== 'object') throw new Error('store: write op must be an object');
    const keys = Object.prototype.hasOwnProperty.call(TABLE_KEYS, op.table) ? TABLE_KEYS[op.table] : undefined;
    const columns = this.columns.get(op.table);
    if (!keys || !columns || columns.size === 0) throw new Error(`store: unknown table "${op.table}"`);
    if (!isOpKind(op.op)) throw new Error(`store: unknown op "${(op as { op: unknown }).op}" on table "${op.table}"`);
    const values = opValues(op);
    if (values === null || typeof values !== 'object' || Array.isArray(values)) {
      throw new Error(`store: ${op.op} on "${op.table}" needs ${OP_BODY[op.op]} object`);
    }
    const names = Object.keys(values);
    if (names.length === 0) throw new Error(`store: ${op.op} on "${op.table}" with no columns`);
    for (const name of names) {
      if (!columns.has(name)) throw new Error(`store: unknown column "${name}" in table "${op.table}"`);
      const value = values[name];
      const ok = value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
      if (!ok) throw new Error(`store: column "${op.table}.${name}" must be a string, finite number or null`);
      if (value === null && op.op === 'deleteBefore')
        throw new Error(`store: deleteBefore on "${op.table}" needs a value for "${name}", not null`);
    }
    if (op.op === 'upsert' || op.op === 'insert') {
      for (const key of keys) {
        if (!(key in values) || values[key] === null) {
          throw new Error(`store: ${op.op} on "${op.table}" is missing key column "${key}"`);
        }
      }
    }
  }
}

/** Runs one statement that changes rows. */
export type RunSql = (sql: string, params: SqlValue[]) => void;

/** Applies one (already validated) op. Idempotent for a given database state. */
export function applyOp(run: RunSql, op: WriteOp): void {
  const values = opValues(op);
  const names = Object.keys(values);
  run(
    statementOf(op.op, op.table, names),
    names.map((n) => values[n] ?? null),
  );
}

/** Most SQL variables in one statement (SQLite's lowest default limit). */
const MAX_VARIABLES = 999;
const MAX_ROWS = 32;

/**
 * Applies (already validated) ops in order, as `applyOp` one by one would. Consecutive inserts
 * into one table with the same columns go as multi-row INSERTs, and consecutive deletes from one
 * table by one column's non-null values as one DELETE ... IN (row counts of powers of two, so
 * that few statement texts exist); when one of those fails, its ops are applied one by one.
 * `failed` gets each op that could not be applied (the others are applied regardless).
 */
export function applyOps(run: RunSql, ops: readonly WriteOp[], failed: (op: WriteOp, error: unknown) => void): void {
  const one = (op: WriteOp): void => {
    try {
      applyOp(run, op);
    } catch (error) {
      failed(op, error);
    }
  };
  for (let i = 0; i < ops.length;) {
    const first = ops[i]!;
    const names = groupable(first);
    if (!names) {
      one(first);
      i += 1;
      continue;
    }
    let end = i + 1;
    while (end < ops.length && sameShape(ops[end]!, first, names)) end += 1;
    const most = Math.min(MAX_ROWS, Math.floor(MAX_VARIABLES / names.length));
    while (i < end) {
      let rows = 1;
      while (rows * 2 <= Math.min(end - i, most)) rows *= 2;
      if (rows === 1) {
        one(ops[i]!);
      } else {
        const group = ops.slice(i, i + rows);
        const params: SqlValue[] = [];
        for (const op of group) {
          const values = opValues(op);
          for (const name of names) params.push(values[name] ?? null);
        }
        try {
          run(statementOf(first.op, first.table, names, rows), params);
        } catch {
          for (const op of group) one(op);
        }
      }
      i += rows;
    }
  }
}

/** The columns an op groups by: an insert's, or a delete's one where-column with a non-null value; undefined for any other op. */
function groupable(op: WriteOp): string[] | undefined {
  if (op.op === 'insert') return Object.keys(op.row);
  if (op.op !== 'delete') return undefined;
  const names = Object.keys(op.where);
  return names.length === 1 && op.where[names[0]!] !== null ? names : undefined;
}

/** Whether `op` joins `first`'s group: same kind and table, and groupable by the same columns in the same order. */
function sameShape(op: WriteOp, first: WriteOp, names: string[]): boolean {
  if (op.op !== first.op || op.table !== first.table) return false;
  const keys = groupable(op);
  if (keys === undefined || keys.length !== names.length) return false;
  for (let k = 0; k < keys.length; k++) if (keys[k] !== names[k]) return false;
  return true;
}

/** The statement text per op kind, table and column list: the same few shapes repeat on every write. */
const statements = new Map<string, string>();

function statementOf(kind: WriteOp['op'], tableName: string, names: string[], rows = 1): string {
  const shape = `${kind}\0${rows}\0${tableName}\0${names.join('\0')}`;
  let sql = statements.get(shape);
  if (sql === undefined) {
    sql = buildStatement(kind, tableName, names, rows);
    if (statements.size >= 1000) statements.clear();
    statements.set(shape, sql);
  }
  return sql;
}

function buildStatement(kind: WriteOp['op'], tableName: string, names: string[], rows: number): string {
  const keys = TABLE_KEYS[tableName];
  if (!keys) throw new Error(`store: unknown table "${tableName}"`);
  const table = quote(tableName);
  if (kind === 'delete' && rows > 1)
    return `DELETE FROM ${table} WHERE ${quote(names[0]!)} IN (${Array.from({ length: rows }, () => '?').join(', ')})`;
  if (kind === 'delete') return `DELETE FROM ${table} WHERE ${names.map((n) => `${quote(n)} IS ?`).join(' AND ')}`;
  if (kind === 'deleteBefore')
    return `DELETE FROM ${table} WHERE (${names.map(quote).join(', ')}) < (${names.map(() => '?').join(', ')})`;
  const cols = names.map(quote).join(', ');
  const marks = names.map(() => '?').join(', ');
  if (kind === 'insert')
    return `INSERT OR IGNORE INTO ${table} (${cols}) VALUES ${Array.from({ length: rows }, () => `(${marks})`).join(', ')}`;
  if (kind !== 'upsert') throw new Error(`store: no statement for '${kind satisfies never}'`);
  const updates = names.filter((n) => !keys.includes(n)).map((n) => `${quote(n)} = excluded.${quote(n)}`);
  const conflict = `ON CONFLICT (${keys.map(quote).join(', ')}) DO ${updates.length ? `UPDATE SET ${updates.join(', ')}` : 'NOTHING'}`;
  return `INSERT INTO ${table} (${cols}) VALUES (${marks}) ${conflict}`;
}
