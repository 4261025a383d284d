/**
 * Logical write ops: validation against the schema and idempotent application to a database.
 * upsert = insert, or update the given columns on a key conflict; insert = INSERT OR IGNORE on
 * the key; delete = delete the rows matching every `where` column (null-safe equality).
 */
import type { Database } from 'sql.js';
import { TABLE_KEYS } from './migrations.js';
import { maskedOp } from './masked-op.js';

import type { Row, SqlValue, WriteOp } from './write-op.js';

export type { Row, SqlValue, WriteOp } from './write-op.js';

const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** Column names per table, read once from PRAGMA table_info after migrations. */
export class Schema {
  private readonly columns = new Map<string, Set<string>>();

  constructor(db: Database) {
    for (const table of Object.keys(TABLE_KEYS)) {
      const info = db.exec(`PRAGMA table_info(${quote(table)})`);
      const names = (info[0]?.values ?? []).map((r) => String(r[1]));
      this.columns.set(table, new Set(names));
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
    let values: Row;
    if (op.op === 'upsert' || op.op === 'insert') values = op.row;
    else if (op.op === 'delete') values = op.where;
    else throw new Error(`store: unknown op "${(op as { op: unknown }).op}" on table "${op.table}"`);
    if (values === null || typeof values !== 'object' || Array.isArray(values)) {
      throw new Error(`store: ${op.op} on "${op.table}" needs ${op.op === 'delete' ? 'where' : 'row'} object`);
    }
    const names = Object.keys(values);
    if (names.length === 0) throw new Error(`store: ${op.op} on "${op.table}" with no columns`);
    for (const name of names) {
      if (!columns.has(name)) throw new Error(`store: unknown column "${name}" in table "${op.table}"`);
      const value = values[name];
      const ok = value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
      if (!ok) throw new Error(`store: column "${op.table}.${name}" must be a string, finite number or null`);
    }
    if (op.op !== 'delete') {
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
  const values = op.op === 'delete' ? op.where : op.row;
  const names = Object.keys(values);
  run(statementOf(op.op, op.table, names), names.map((n) => values[n] ?? null));
}

/** The statement text per op kind, table and column list: the same few shapes repeat on every write. */
const statements = new Map<string, string>();

function statementOf(kind: WriteOp['op'], tableName: string, names: string[]): string {
  const shape = `${kind}\0${tableName}\0${names.join('\0')}`;
  let sql = statements.get(shape);
  if (sql === undefined) {
    sql = buildStatement(kind, tableName, names);
    if (statements.size >= 1000) statements.clear();
    statements.set(shape, sql);
  }
  return sql;
}

function buildStatement(kind: WriteOp['op'], tableName: string, names: string[]): string {
  const keys = TABLE_KEYS[tableName];
  if (!keys) throw new Error(`store: unknown table "${tableName}"`);
  const table = quote(tableName);
  if (kind === 'delete') return `DELETE FROM ${table} WHERE ${names.map((n) => `${quote(n)} IS ?`).join(' AND ')}`;
  const cols = names.map(quote).join(', ');
  const marks = names.map(() => '?').join(', ');
  if (kind === 'insert') return `INSERT OR IGNORE INTO ${table} (${cols}) VALUES (${marks})`;
  const updates = names.filter((n) => !keys.includes(n)).map((n) => `${quote(n)} = excluded.${quote(n)}`);
  const conflict = `ON CONFLICT (${keys.map(quote).join(', ')}) DO ${updates.length ? `UPDATE SET ${updates.join(', ')}` : 'NOTHING'}`;
  return `INSERT INTO ${table} (${cols}) VALUES (${marks}) ${conflict}`;
}
