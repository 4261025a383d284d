/**
 * The store's SQL in PostgreSQL's dialect: migrations (written for SQLite) translated, and logical
 * write ops (server/store/ops.ts) as parameterized statements with the same idempotent meaning.
 */
import { escapeLiteral } from 'pg';
import { TABLE_KEYS, type Migration } from '../migrations.js';
import { quote, type SqlValue, type WriteOp } from '../ops.js';
import { opValues, withOpValues } from '../write-op.js';

/** Tables of the embedded store only (its journals' watermarks). */
const EMBEDDED_ONLY = /journal_watermarks/;

/**
 * The statements of one migration for PostgreSQL. SQLite's INTEGER columns become DOUBLE
 * PRECISION: like SQLite they take any number a caller writes (epoch ms, a fraction) and come
 * back as JavaScript numbers, exact up to 2^53.
 */
export function pgMigrationStatements(migration: Migration): string[] {
  return migration.sql
    .split(';')
    .map((statement) => statement.trim())
    .filter((statement) => statement.length > 0 && !EMBEDDED_ONLY.test(statement))
    .map((statement) => statement.replace(/\b(INTEGER|REAL)\b/g, 'DOUBLE PRECISION'));
}

/**
 * The op with every NUL in its text replaced by U+FFFD: PostgreSQL text cannot hold NUL, and one
 * such value would make it reject the whole batch of writes it came with. Applied before the read
 * model too, so that every replica holds the same text. (Artifact bodies encode theirs instead.)
 */
export function pgTextOp(op: WriteOp): WriteOp {
  const values = opValues(op);
  if (!Object.values(values).some((value) => typeof value === 'string' && value.includes('\u0000'))) return op;
  const safe = Object.fromEntries(
    Object.entries(values).map(([column, value]) => [
      column,
      typeof value === 'string' ? value.replace(/\u0000/g, '\ufffd') : value,
    ]),
  );
  return withOpValues(op, safe);
}

export interface PgStatement {
  text: string;
  values: SqlValue[];
}

const MAX_PARAMS = 30_000;

/**
 * Validated ops, in order, as few statements as keep their meaning: a run of inserts or upserts
 * into one table with the same columns becomes one multi-row INSERT (an upsert run is cut where a
 * key repeats, since one statement may not update a row twice).
 */
export function pgWriteStatements(ops: WriteOp[]): PgStatement[] {
  const statements: PgStatement[] = [];
  let run: Extract<WriteOp, { row: unknown }>[] = [];
  let runKeys = new Set<string>();
  const signature = (op: Extract<WriteOp, { row: unknown }>) =>
    `${op.op}\u0000${op.table}\u0000${Object.keys(op.row).join('\u0000')}`;
  const flush = () => {
    if (run.length) statements.push(multiRow(run));
    run = [];
    runKeys = new Set();
  };
  for (const op of ops) {
    if (op.op === 'delete' || op.op === 'deleteBefore') {
      flush();
      statements.push(pgStatement(op));
      continue;
    }
    const key = JSON.stringify(TABLE_KEYS[op.table]?.map((k) => op.row[k]));
    const fits =
      run.length > 0 &&
      signature(run[0]) === signature(op) &&
      (run.length + 1) * Object.keys(op.row).length <= MAX_PARAMS &&
      !(op.op === 'upsert' && runKeys.has(key));
    if (!fits) flush();
    run.push(op);
    runKeys.add(key);
  }
  flush();
  return statements;
}

function multiRow(ops: Extract<WriteOp, { row: unknown }>[]): PgStatement {
  if (ops.length === 1) return pgStatement(ops[0]);
  const first = pgStatement(ops[0]);
  const names = Object.keys(ops[0].row);
  const values: SqlValue[] = [];
  const tuples = ops.map((op) => {
    const marks = names.map((n) => {
      values.push(op.row[n] ?? null);
      return `$${values.length}`;
    });
    return `(${marks.join(', ')})`;
  });
  const text = first.text.replace(/VALUES \([^)]*\)/, () => `VALUES ${tuples.join(', ')}`);
  return { text, values };
}

/** One validated op as a statement: insert ignores an existing key, upsert updates, delete is null-safe. */
export function pgStatement(op: WriteOp): PgStatement {
  const keys = TABLE_KEYS[op.table];
  if (!keys) throw new Error(`store: unknown table "${op.table}"`);
  const table = quote(op.table);
  if (op.op === 'delete') {
    const names = Object.keys(op.where);
    const where = names.map((n, i) => `${quote(n)} IS NOT DISTINCT FROM $${i + 1}`).join(' AND ');
    return { text: `DELETE FROM ${table} WHERE ${where}`, values: names.map((n) => op.where[n] ?? null) };
  }
  if (op.op === 'deleteBefore') {
    // Text compares in binary order, as SQLite's does, whatever the database's collation.
    const names = Object.keys(op.before);
    const columns = names.map((n) => (typeof op.before[n] === 'string' ? `${quote(n)} COLLATE "C"` : quote(n)));
    const marks = names.map((_, i) => `$${i + 1}`);
    return {
      text: `DELETE FROM ${table} WHERE (${columns.join(', ')}) < (${marks.join(', ')})`,
      values: names.map((n) => op.before[n] ?? null),
    };
  }
  const names = Object.keys(op.row);
  const values = names.map((n) => op.row[n] ?? null);
  const cols = names.map(quote).join(', ');
  const marks = names.map((_, i) => `$${i + 1}`).join(', ');
  const updates =
    op.op === 'upsert' ? names.filter((n) => !keys.includes(n)).map((n) => `${quote(n)} = EXCLUDED.${quote(n)}`) : [];
  const action = updates.length ? `UPDATE SET ${updates.join(', ')}` : 'NOTHING';
  return {
    text: `INSERT INTO ${table} (${cols}) VALUES (${marks}) ON CONFLICT (${keys.map(quote).join(', ')}) DO ${action}`,
    values,
  };
}

/** Above this many characters of values, a batch is sent with its values as parameters (see `inlined`). */
export const MAX_INLINED_CHARS = 64 * 1024;

/** How many characters a batch's statements carry in values (what inlining them would escape). */
export function valueChars(statements: PgStatement[]): number {
  let chars = 0;
  for (const statement of statements)
    for (const value of statement.values) chars += value === null ? 4 : String(value).length;
  return chars;
}

/**
 * The statement with its values written in as literals, for a transaction sent as one simple
 * query (one round trip instead of one per statement). Each value is quoted by the driver's
 * `escapeLiteral` as text of unknown type, which PostgreSQL resolves as it resolves a parameter
 * (node-postgres sends every parameter as text of unknown type: a number as its `String`).
 * The `$n` it replaces are only placeholders: the statements' identifiers are quoted schema names.
 */
export function inlined(statement: PgStatement): string {
  return statement.text.replace(/\$(\d+)/g, (_, n: string) => {
    const value = statement.values[Number(n) - 1];
    if (value === undefined) throw new Error(`store: statement has no value for $${n}`);
    return value === null ? 'NULL' : escapeLiteral(String(value));
  });
}
