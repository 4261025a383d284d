import { EventEmitter } from 'node:events';
import { errorMessage } from '../log.js';
import type { SqlValue, Store, WriteOp } from '../store/store.js';
import type { ActivityInfo, ActivityRated, ActivityRating } from '../../protocol/records.js';
import { activityId } from './activity-id.js';
import type { ActivityFilter } from './activity-query.js';
import { activityFromRow, type ActivityRow } from './activity-row.js';
import * as table from './activity-table.js';

/** The ratings of calls retention dropped go to the store this many ops a write. */
const DELETE_BATCH = 500;

/** A finished call, as the call pipeline reports it: the log adds its id, time, user and rating. */
export type ActivityCall = Omit<ActivityInfo, 'id' | 'at' | 'audit' | 'user' | 'rating'> & {
  at?: number;
  audit?: boolean;
};

/**
 * The activity log in the store: every call, its outcome and the user's rating of it.
 * Hands out calls as protocol `ActivityInfo` records (one declaration, one casing, everywhere).
 * Emits 'recorded' (ActivityInfo, not rated yet) and 'rated' (ActivityRated) for live views.
 */
export class ActivityLog extends EventEmitter<{ recorded: [ActivityInfo]; rated: [ActivityRated] }> {
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
  /** The team user a session belongs to; undefined for none (stdio, the gateway's own token). */
  userOf(sessionId: string): string | undefined {
    return this.sessionUsers.get(sessionId);
  }

  attributeSession(sessionId: string, user: string | undefined): void {
    if (user === undefined) this.sessionUsers.delete(sessionId);
    else this.sessionUsers.set(sessionId, user);
  }

  /** Resolves when the records written so far may be acknowledged. */
  acknowledged(): Promise<void> {
    return this.store.acknowledged?.() ?? Promise.resolve();
  }

  record(call: ActivityCall): ActivityInfo {
    return this.recordMany([call])[0]!;
  }

  /** Several calls in one store write; each is announced as 'recorded'. */
  recordMany(calls: ActivityCall[]): ActivityInfo[] {
    const now = Date.now();
    const full = calls.map((call) => this.complete(call, now));
    if (full.length === 0) return full;
    this.store.writeMany(full.map((entry) => table.insertOp(storedRow(entry))));
    this.generation += 1;
    for (const entry of full) this.emit('recorded', entry);
    return full;
  }

  /**
   * The record as stored and announced; an optional field the call left undefined stays absent.
   * Built field by field: spreading the call cost ~10 µs per record (V8 copies it slowly).
   */
  private complete(call: ActivityCall, now: number): ActivityInfo {
    const info: ActivityInfo = {
      id: activityId(now),
      at: call.at ?? now,
      session: call.session,
      power: call.power,
      tool: call.tool,
      variant: call.variant,
      decision: call.decision,
      status: call.status,
      latencyMs: Math.round(call.latencyMs),
      resultBytes: call.resultBytes,
      audit: call.audit === true,
      rating: 0,
    };
    if (call.operationType !== undefined) info.operationType = call.operationType;
    if (call.dataSensitivity !== undefined) info.dataSensitivity = call.dataSensitivity;
    if (call.reason !== undefined) info.reason = call.reason;
    if (call.decisionReason !== undefined) info.decisionReason = call.decisionReason;
    if (call.error !== undefined) info.error = call.error;
    const user = this.sessionUsers.get(call.session);
    if (user !== undefined) info.user = user;
    return info;
  }

  /** Thumbs up (+1) or down (-1) on a call; 0 takes the rating back. */
  async rate(activityId: string, rating: ActivityRating): Promise<void> {
    if (!(await table.exists(this.store, activityId)))
      throw new Error(
        `No activity '${activityId}': rate a call listed by 'grimoire activity list' or the Activity view.`,
      );
    this.store.write(table.ratingOp(activityId, rating, Date.now()));
    this.generation += 1;
    this.emit('rated', { id: activityId, rating });
  }

  /** Every finished call's outcome with its rating, the calls recorded so far included. */
  ratedOutcomes(): Promise<table.RatedOutcome[]> {
    return table.ratedOutcomes(this.store);
  }

  recent(limit = 50): Promise<ActivityInfo[]> {
    return this.query({ limit });
  }

  /** Calls matching the filter, newest first. */
  async query(filter: ActivityFilter): Promise<ActivityInfo[]> {
    return (await table.filteredRows<ActivityRow>(this.store, filter)).map(activityFromRow);
  }

  /** Retention: drops rows older than `maxAgeDays`, then the oldest beyond `maxEntries`. Returns how many. */
  async prune(maxAgeDays: number, maxEntries: number, now = Date.now()): Promise<number> {
    const cut = await table.retentionCut(this.store, maxAgeDays, maxEntries, now);
    if (!cut) return 0;
    this.store.write(table.deleteBeforeOp(cut));
    this.writeInBatches(await table.orphanedRatingOps(this.store));
    this.generation += 1;
    return cut.dropped;
  }

  /** Many ops as several store writes of at most DELETE_BATCH each. */
  private writeInBatches(ops: WriteOp[]): void {
    for (let i = 0; i < ops.length; i += DELETE_BATCH) this.store.writeMany(ops.slice(i, i + DELETE_BATCH));
  }
}

/** The warning for calls that could not be recorded: how many, to which tools, and why. */
export function unrecorded(calls: ReadonlyArray<{ power?: unknown; tool?: unknown }>, error: unknown): string {
  const tools = [...new Set(calls.map((call) => `${call.power}:${call.tool}`))].join(', ');
  return `could not record ${calls.length} call(s) to ${tools}: ${errorMessage(error)}`;
}

/**
 * The row as inserted. Absent optional fields are left out rather than written as null (the
 * columns have no default: the row is the same), so the journal line is shorter and the insert
 * binds fewer values.
 */
function storedRow(full: ActivityInfo): Record<string, SqlValue> {
  const row: Record<string, SqlValue> = {
    id: full.id,
    at: full.at,
    session: full.session,
    power: full.power,
    tool: full.tool,
    variant: full.variant,
    decision: full.decision,
    status: full.status,
    latency_ms: full.latencyMs,
    result_bytes: full.resultBytes,
  };
  if (full.operationType !== undefined) row.operation_type = full.operationType;
  if (full.dataSensitivity !== undefined) row.data_sensitivity = full.dataSensitivity;
  if (full.reason !== undefined) row.reason = full.reason;
  if (full.decisionReason !== undefined) row.decision_reason = full.decisionReason;
  if (full.error !== undefined) row.error = full.error;
  if (full.audit) row.audit = 1;
  if (full.user !== undefined) row.user_name = full.user;
  return row;
}
