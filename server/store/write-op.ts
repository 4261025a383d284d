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

/** What an op writes (its row) or matches (a delete's where, a range's bound). */
export function opValues(op: WriteOp): Row {
  return op.op === 'delete' ? op.where : op.op === 'deleteBefore' ? op.before : op.row;
}
