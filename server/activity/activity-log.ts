import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Row, Store, WriteOp } from '../store/store.js';
import { activitySql, type ActivityFilter } from './activity-query.js';

/** One call the agent made through the gateway, as the activity log keeps it. */
export interface ActivityEntry {
  id: string;
  at: number;
  session: string;
  power: string;
  tool: string;
  /** 'direct' for a `<power>__<tool>` call; read / write / destructive for the intent-declared calls. */
  variant: string;
  operationType?: string;
  dataSensitivity?: string;
  reason?: string;
  decision: 'allowed' | 'warned' | 'rejected';
  decisionReason?: string;
  /** 'suggested': a prerequisite was suggested instead, and the tool was not called. */
  status: 'ok' | 'error' | 'rejected' | 'suggested';
  error?: string;
  latencyMs: number;
  resultBytes: number;
  /** The spell marks this tool `audit: true`. */
  audit?: boolean;
  /** The gateway user whose session made the call (absent: the owner). */
  user?: string;
}

export type NewActivityEntry = Omit<ActivityEntry, 'id' | 'at'> & { at?: number };

function activityRow(full: ActivityEntry): Row {
  return {
    id: full.id,
    at: full.at,
    session: full.session,
    power: full.power,
    tool: full.tool,
    variant: full.variant,
    operation_type: full.operationType ?? null,
    data_sensitivity: full.dataSensitivity ?? null,
    reason: full.reason ?? null,
    decision: full.decision,
    decision_reason: full.decisionReason ?? null,
    status: full.status,
    error: full.error ?? null,
    latency_ms: Math.round(full.latencyMs),
    result_bytes: full.resultBytes,
    audit: full.audit ? 1 : null,
    user_name: full.user ?? null,
  };
}

export interface ActivityRow {
  id: string;
  at: number;
  session: string;
  power: string;
  tool: string;
  variant: string;
  operation_type: string | null;
  data_sensitivity: string | null;
  reason: string | null;
  decision: string;
  decision_reason: string | null;
  status: string;
  error: string | null;
  latency_ms: number;
  result_bytes: number;
  audit: number | null;
  user_name: string | null;
  rating: number | null;
}

/**
 * The activity log in the store: every call, its outcome and the user's rating of it.
 * Emits 'recorded' (ActivityEntry) and 'rated' ({ activityId, rating }) for live views.
 */
export class ActivityLog extends EventEmitter<{ recorded: [ActivityEntry]; rated: [{ activityId: string; rating: -1 | 0 | 1 }] }> {
  private generation = 0;
  /** Session id -> the user who opened it (HTTP sessions of users added with `grimoire users add`). */
  private readonly sessionUsers = new Map<string, string>();

  constructor(private readonly store: Store) {
    super();
  }

  /** Bumps on every write by this process: a cheap key for caches built on the log. */
  get version(): number {
    return this.generation;
  }

  /** Calls of this session are attributed to `user` from now on; undefined forgets the session. */
  attributeSession(sessionId: string, user: string | undefined): void {
    if (user === undefined) this.sessionUsers.delete(sessionId);
    else this.sessionUsers.set(sessionId, user);
  }

  /** The store wants a record committed before its call is acknowledged (see Store.acknowledged). */
  get acknowledges(): boolean {
    return typeof this.store.acknowledged === 'function';
  }

  /** Resolves when the records written so far may be acknowledged. */
  acknowledged(): Promise<void> {
    return this.store.acknowledged?.() ?? Promise.resolve();
  }

  record(entry: NewActivityEntry): ActivityEntry {
    return this.recordMany([entry])[0]!;
  }

  /** Several calls in one store write (one journal line); each is announced as 'recorded'. */
  recordMany(entries: NewActivityEntry[]): ActivityEntry[] {
    const now = Date.now();
    const full = entries.map((entry): ActivityEntry => ({ id: randomUUID(), at: entry.at ?? now, user: this.sessionUsers.get(entry.session), ...entry }));
    if (full.length === 0) return full;
    this.store.writeMany(full.map((e): WriteOp => ({ op: 'insert', table: 'activity', row: activityRow(e) })));
    this.generation += 1;
    for (const e of full) this.emit('recorded', e);
    return full;
  }

  /** Thumbs up (+1) or down (-1) on a call; 0 takes the rating back. */
  rate(activityId: string, rating: -1 | 0 | 1): void {
    const [exists] = this.store.query<{ id: string }>('SELECT id FROM activity WHERE id = ?', [activityId]);
    if (!exists) throw new Error(`No activity '${activityId}': rate a call listed by 'grimoire activity list' or the Activity view.`);
    this.store.write({ op: 'upsert', table: 'activity_ratings', row: { activity_id: activityId, rating, at: Date.now() } });
    this.generation += 1;
    this.emit('rated', { activityId, rating });
  }

  recent(limit = 50): ActivityRow[] {
    return this.query({ limit });
  }

  /** Rows matching the filter, newest first. */
  query(filter: ActivityFilter): ActivityRow[] {
    const { sql, params } = activitySql(filter);
    return this.store.query<ActivityRow>(sql, params);
  }

  /** Retention: drops rows older than `maxAgeDays`, then the oldest beyond `maxEntries`. Returns how many. */
  prune(maxAgeDays: number, maxEntries: number, now = Date.now()): number {
    const old = this.store.query<{ id: string }>('SELECT id FROM activity WHERE at < ?', [now - maxAgeDays * 24 * 3600 * 1000]);
    // One index step per row to see whether there is an excess at all; sorting every row by (at, id) only when there is.
    const over = this.store.query('SELECT at FROM activity WHERE at >= ? ORDER BY at DESC LIMIT 1 OFFSET ?', [now - maxAgeDays * 24 * 3600 * 1000, maxEntries]).length > 0;
    const excess = !over
      ? []
      : this.store.query<{ id: string }>('SELECT id FROM activity WHERE at >= ? ORDER BY at DESC, id LIMIT -1 OFFSET ?', [now - maxAgeDays * 24 * 3600 * 1000, maxEntries]);
    const ids = [...old, ...excess].map((row) => row.id);
    for (let i = 0; i < ids.length; i += 500) {
      const ops = ids.slice(i, i + 500).flatMap((id): WriteOp[] => [
        { op: 'delete', table: 'activity', where: { id } },
        { op: 'delete', table: 'activity_ratings', where: { activity_id: id } },
      ]);
      this.store.writeMany(ops);
    }
    if (ids.length) this.generation += 1;
    return ids.length;
  }
}
