import { randomUUID } from 'node:crypto';
import type { WriteOp } from './store.js';

/**
 * The op that inserts one row of `events`: the event log (activity/event-log.ts, which owns the
 * table and reads it) records with it, and a store backend writes its own notices with it.
 */
export function eventOp(kind: string, power: string | null, detail: string | null, at = Date.now()): WriteOp {
  return { op: 'insert', table: 'events', row: { id: randomUUID(), at, kind, power, detail } };
}
