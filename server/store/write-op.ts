import { randomUUID } from 'node:crypto';

/** The shape of one logical write: what ops.ts validates and applies, and masked-op.ts masks. */
export type SqlValue = string | number | null;
export type Row = Record<string, SqlValue>;
export type WriteOp =
  | { op: 'upsert' | 'insert'; table: string; row: Row }
  | { op: 'delete'; table: string; where: Row }
  /**
   * Deletes every row whose columns, compared in the order `before` names them, sort before its
   * values: SQL's row-value `(a, b) < (?, ?)` (text in binary order). One op for a range that
   * would otherwise take a delete per row (retention).
   */
  | { op: 'deleteBefore'; table: string; before: Row };

/** The field of each kind of op that holds its values: what it writes (row) or matches (where, before). */
export const OP_BODY = {
  upsert: 'row',
  insert: 'row',
  delete: 'where',
  deleteBefore: 'before',
} as const satisfies Record<WriteOp['op'], string>;

/** Whether `kind` names an op (a journal line from elsewhere may hold anything). */
export function isOpKind(kind: unknown): kind is WriteOp['op'] {
  return typeof kind === 'string' && Object.prototype.hasOwnProperty.call(OP_BODY, kind);
}

/** What an op writes (its row) or matches (a delete's where, a range's bound). */
export function opValues(op: WriteOp): Row {
  return (op as unknown as Record<string, Row>)[OP_BODY[op.op]]!;
}

/** The same op with other values in its body (`opValues`' counterpart). */
export function withOpValues(op: WriteOp, values: Row): WriteOp {
  return { ...op, [OP_BODY[op.op]]: values } as WriteOp;
}

/**
 * The op that inserts one row of `events`: the event log (activity/event-log.ts, which owns the
 * table and reads it) records with it, and a store backend writes its own notices with it.
 */
export function eventOp(kind: string, power: string | null, detail: string | null, at = Date.now()): WriteOp {
  return { op: 'insert', table: 'events', row: { id: randomUUID(), at, kind, power, detail } };
}
