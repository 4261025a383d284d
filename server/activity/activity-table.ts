/**
 * The one module that speaks SQL to the `activity` and `activity_ratings` tables. Every other
 * module (the activity log, usage statistics, learned transitions, the hint network, the CLI)
 * asks these functions; the same statements run on either store backend.
 */
import type { SqlValue, Store, WriteOp } from '../store/store.js';
import type { ActivityFilter } from './activity-query.js';

/** The activity log grows with use: it is read with queries that can wait (`Store.read`). */
type Reader = Pick<Store, 'read'>;

/** The most rows one filtered query returns. */
export const MAX_LIMIT = 1000;

/** One call that reached a server (status ok or error), as learned transitions read it. */
export interface FinishedCallRow {
  id: string;
  session: string;
  power: string;
  tool: string;
  status: string;
  at: number;
}

/** One finished call with its rating, as usage statistics read it. */
export interface RatedOutcome {
  id: string;
  power: string;
  tool: string;
  status: string;
  latency_ms: number;
  at: number;
  rating: number | null;
}

/** The SELECT and parameters for a filter (newest first, limited to 1..MAX_LIMIT). */
export function filteredSql(filter: ActivityFilter): { sql: string; params: SqlValue[] } {
  const where: string[] = [];
  const params: SqlValue[] = [];
  const add = (clause: string, value: SqlValue | undefined) => {
    if (value === undefined || value === '') return;
    where.push(clause);
    params.push(value);
  };
  add('a.operation_type = ?', filter.intentType);
  add('a.status = ?', filter.status);
  add('a.power = ?', filter.power);
  add('a.tool = ?', filter.tool);
  add('a.user_name = ?', filter.user);
  add('a.at >= ?', filter.since);
  add('a.at < ?', filter.until);
  const limit = Math.max(1, Math.min(MAX_LIMIT, filter.limit ?? 50));
  return {
    sql:
      'SELECT a.*, r.rating AS rating FROM activity a LEFT JOIN activity_ratings r ON r.activity_id = a.id' +
      (where.length ? ` WHERE ${where.join(' AND ')}` : '') +
      ' ORDER BY a.at DESC, a.id LIMIT ?',
    params: [...params, limit],
  };
}

/** Rows (with their rating) matching the filter, newest first. */
export function filteredRows<T>(store: Reader, filter: ActivityFilter): Promise<T[]> {
  const { sql, params } = filteredSql(filter);
  return store.read<T>(sql, params);
}

export function insertOp(row: Record<string, SqlValue>): WriteOp {
  return { op: 'insert', table: 'activity', row };
}

export function ratingOp(activityId: string, rating: -1 | 0 | 1, at: number): WriteOp {
  return { op: 'upsert', table: 'activity_ratings', row: { activity_id: activityId, rating, at } };
}

/** Where a retention pass cuts the table: every call before `before` in (at, id) order goes, `dropped` of them. */
export interface RetentionCut {
  before: { at: number; id: string };
  dropped: number;
}

/** The op that deletes the calls before a cut. Their ratings go with `orphanedRatingOps` once the calls are gone. */
export function deleteBeforeOp(cut: RetentionCut): WriteOp {
  return { op: 'deleteBefore', table: 'activity', before: { at: cut.before.at, id: cut.before.id } };
}

/**
 * The ops that delete ratings whose call is no longer in the table. Only rated calls have a rating
 * row, so this probes a few rows instead of deleting a rating for every dropped call; a call rated
 * by another process while it was being dropped leaves a rating that the next pass deletes.
 */
export async function orphanedRatingOps(store: Reader): Promise<WriteOp[]> {
  return (
    await store.read<{ activity_id: string }>(
      'SELECT activity_id FROM activity_ratings WHERE activity_id NOT IN (SELECT id FROM activity)',
    )
  ).map((row): WriteOp => ({ op: 'delete', table: 'activity_ratings', where: { activity_id: row.activity_id } }));
}

export async function exists(store: Reader, id: string): Promise<boolean> {
  return (await store.read<{ id: string }>('SELECT id FROM activity WHERE id = ?', [id])).length > 0;
}

/**
 * Ids that start or end with `part`: a short id as the CLI lists it (the id's end), or the start
 * of an id (as the CLI listed ids before they were time-ordered).
 */
export async function idsMatching(store: Reader, part: string): Promise<string[]> {
  const literal = part.replace(/[\\%_]/g, (c) => `\\${c}`);
  const rows = await store.read<{ id: string }>(
    "SELECT id FROM activity WHERE id LIKE ? ESCAPE '\\' OR id LIKE ? ESCAPE '\\' ORDER BY at, id",
    [`${literal}%`, `%${literal}`],
  );
  return rows.map((row) => row.id);
}

/**
 * Where a retention of `maxAgeDays` and `maxEntries` cuts the table, in (at, id) order: the calls
 * older than the age go, then the oldest beyond the count; undefined when none goes. The pass is
 * then one range delete (`deleteBeforeOp`), not one op per dropped call: at the cap, retention
 * drops as many calls as are recorded.
 */
export async function retentionCut(
  store: Reader,
  maxAgeDays: number,
  maxEntries: number,
  now: number,
): Promise<RetentionCut | undefined> {
  let before = { at: now - maxAgeDays * 24 * 3600 * 1000, id: '' };
  // A call without a time (none this gateway writes) is neither counted nor dropped.
  const firstKept = await firstKeptBeyond(
    store,
    count(await store.read<{ n: number | string }>('SELECT COUNT(at) AS n FROM activity')) - Math.max(0, maxEntries),
  );
  if (firstKept && (firstKept.at > before.at || (firstKept.at === before.at && firstKept.id > before.id)))
    before = firstKept;
  const dropped = count(
    await store.read<{ n: number | string }>('SELECT COUNT(*) AS n FROM activity WHERE (at, id) < (?, ?)', [
      before.at,
      before.id,
    ]),
  );
  return dropped > 0 ? { before, dropped } : undefined;
}

/**
 * The call `excess` calls from the oldest in (at, id) order, the first a count cut keeps; the end
 * of the table when there is none. Read from the `activity_at` index: its time, how many calls
 * are older, then the id among the calls of that very millisecond (an ORDER BY at, id would sort
 * the whole table on every pass).
 */
async function firstKeptBeyond(store: Reader, excess: number): Promise<{ at: number; id: string } | undefined> {
  if (excess <= 0) return undefined;
  const at = (
    await store.read<{ at: number }>('SELECT at FROM activity WHERE at IS NOT NULL ORDER BY at LIMIT 1 OFFSET ?', [
      excess,
    ])
  )[0]?.at;
  if (at === undefined) return { at: Number.MAX_SAFE_INTEGER, id: '' };
  const older = count(
    await store.read<{ n: number | string }>('SELECT COUNT(*) AS n FROM activity WHERE at < ?', [at]),
  );
  const id = (
    await store.read<{ id: string }>('SELECT id FROM activity WHERE at = ? ORDER BY id LIMIT 1 OFFSET ?', [
      at,
      excess - older,
    ])
  )[0]!.id;
  return { at: Number(at), id };
}

/** A COUNT(*) as a number (PostgreSQL's read model and SQLite alike). */
function count(rows: Array<{ n: number | string }>): number {
  return Number(rows[0]?.n ?? 0);
}

/**
 * The most finished calls the statistics a process keeps in memory read (usage factors, learned
 * transitions): the newest this many (retention's default cap), however many the table holds, so
 * that their memory does not grow with the table.
 */
export const STATISTICS_WINDOW = 10_000;

/** The newest STATISTICS_WINDOW finished calls (NULL times last on either backend), in `order`. */
const newestFinished = (columns: string, order: string) =>
  `SELECT * FROM (SELECT ${columns} WHERE a.status IN ('ok', 'error') ORDER BY (a.at IS NULL), ` +
  `a.at DESC, a.id DESC LIMIT ?) AS newest ORDER BY ${order}`;

/** The newest finished calls (STATISTICS_WINDOW), by session then time. */
export function finishedCalls(store: Reader, window = STATISTICS_WINDOW): Promise<FinishedCallRow[]> {
  return store.read<FinishedCallRow>(
    newestFinished('a.id, a.session, a.power, a.tool, a.status, a.at FROM activity a', 'session, at, id'),
    [window],
  );
}

/** Finished calls at or after `at` (the `activity_at` index), by time. */
export function finishedCallsSince(store: Reader, at: number): Promise<FinishedCallRow[]> {
  return store.read<FinishedCallRow>(
    "SELECT id, session, power, tool, status, at FROM activity WHERE at >= ? AND status IN ('ok', 'error') ORDER BY at, id",
    [at],
  );
}

/** The newest finished calls' outcomes (STATISTICS_WINDOW) with their ratings, oldest first. */
export function ratedOutcomes(store: Reader, window = STATISTICS_WINDOW): Promise<RatedOutcome[]> {
  return store.read<RatedOutcome>(
    newestFinished(
      'a.id, a.power, a.tool, a.status, a.latency_ms, a.at, r.rating FROM activity a LEFT JOIN activity_ratings r ON r.activity_id = a.id',
      'at, id',
    ),
    [window],
  );
}

/** Calls per `power:tool`. */
export async function callsPerTool(store: Reader): Promise<Map<string, number>> {
  const rows = await store.read<{ key: string; n: number }>(
    "SELECT power || ':' || tool AS key, COUNT(*) AS n FROM activity GROUP BY power, tool",
  );
  return new Map(rows.map((r) => [r.key, r.n]));
}

/** Calls per status. */
export function callsPerStatus(store: Reader): Promise<Array<{ status: string; n: number }>> {
  return store.read<{ status: string; n: number }>('SELECT status, COUNT(*) AS n FROM activity GROUP BY status');
}
