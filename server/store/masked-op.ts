import { maskSecrets } from '../util/secrets.js';
import type { Row, WriteOp } from './write-op.js';

/**
 * Tables holding what servers publish about their tools (descriptions, schemas: the review must show
 * them exactly), derived vectors, or artifact bodies (read_artifact returns a tool's result as it
 * came, like the embedded store's artifact files). Every other table's text is masked before it is written.
 */
const VERBATIM = new Set(['catalog_tools', 'catalog_powers', 'tool_pins', 'tool_reviews', 'embeddings', 'artifact_bodies']);

/** The op with secrets masked in every text value of its row (what is written to the store). */
export function maskedOp(op: WriteOp): WriteOp {
  if (op.op === 'delete' || VERBATIM.has(op.table)) return op;
  let changed = false;
  const row: Row = {};
  for (const [column, value] of Object.entries(op.row)) {
    const masked = typeof value === 'string' ? maskSecrets(value) : value;
    if (masked !== value) changed = true;
    row[column] = masked;
  }
  return changed ? { ...op, row } : op;
}
