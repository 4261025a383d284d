import { maskSecrets } from '../util/secrets.js';
import type { Row, WriteOp } from './write-op.js';

/**
 * Tables holding what servers publish about their tools (descriptions, schemas: the review must show
 * them exactly), derived vectors, or artifact bodies (read_artifact returns a tool's result as it
 * came, like the embedded store's artifact files), or JSON masked value by value by its writer (call
 * task views: masking the whole text could break the JSON). Every other table's text is masked before it is written.
 */
const VERBATIM = new Set([
  'catalog_tools',
  'catalog_powers',
  'tool_pins',
  'tool_reviews',
  'embeddings',
  'artifact_bodies',
  'call_tasks',
]);

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
