import { maskSecrets } from '../util/secrets.js';
import { tablesWhere } from './migrations.js';
import type { Row, WriteOp } from './write-op.js';

/** Tables whose text is written as given (migrations.ts says why); every other table's text is masked. */
const VERBATIM = tablesWhere('text', 'verbatim');

/** The op with secrets masked in every text value of its row (what is written to the store). */
export function maskedOp(op: WriteOp): WriteOp {
  if ((op.op !== 'upsert' && op.op !== 'insert') || VERBATIM.has(op.table)) return op;
  let row: Row | undefined;
  for (const column of Object.keys(op.row)) {
    const value = op.row[column];
    if (typeof value !== 'string') continue;
    const masked = maskSecrets(value);
    if (masked !== value) (row ??= { ...op.row })[column] = masked;
  }
  return row ? { ...op, row } : op;
}
