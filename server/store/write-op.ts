/** The shape of one logical write: what ops.ts validates and applies, and masked-op.ts masks. */
export type SqlValue = string | number | null;
export type Row = Record<string, SqlValue>;
export type WriteOp =
  | { op: 'upsert' | 'insert'; table: string; row: Row }
  | { op: 'delete'; table: string; where: Row };
