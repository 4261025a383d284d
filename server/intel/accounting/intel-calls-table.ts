/**
 * The one module that speaks SQL to the `intel_calls` table (one row per summarized or cache-served
 * result: its raw and delivered tokens). The token ledger writes and prunes through it, the token
 * report reads its sums from it.
 */
import type { Store, WriteOp } from '../../store/store.js';

const TABLE = 'intel_calls';
const SUMS = 'COUNT(*) AS n, SUM(raw_tokens) AS raw, SUM(delivered_tokens) AS delivered';

/** The table grows with every summarized call: read where it is kept (on PostgreSQL, the database). */
type Reader = Pick<Store, 'read'>;
const DAY_MS = 86_400_000;

export interface IntelCallRow {
  id: string;
  at: number;
  power: string;
  tool: string;
  artifact_id: string | null;
  summarizer: string;
  cache: string;
  stored: 0 | 1;
  raw_bytes: number;
  raw_tokens: number;
  delivered_tokens: number;
}

/** Rows counted, and their raw and delivered tokens summed (null over no rows). */
export interface Aggregate {
  n: number;
  raw: number | null;
  delivered: number | null;
}

export interface IntelCallSums {
  total: Aggregate;
  /** Per UTC day, oldest first. */
  days: Array<Aggregate & { day: string }>;
  /** Per power, the most tokens saved first. */
  powers: Array<Aggregate & { power: string }>;
  summarizers: Array<{ summarizer: string; n: number }>;
  cache: Array<{ cache: string; n: number }>;
  notStored: number;
}

export function intelCallInsert(row: IntelCallRow): WriteOp {
  return { op: 'insert', table: TABLE, row: { ...row } };
}

/** The raw token count recorded for an artifact's first call, once counted. */
export async function rawTokensOf(store: Reader, artifactId: string): Promise<number | undefined> {
  const [row] = await store.read<{ raw_tokens: number | null }>(
    `SELECT raw_tokens FROM ${TABLE} WHERE artifact_id = ? AND cache != 'hit' AND raw_tokens IS NOT NULL LIMIT 1`,
    [artifactId],
  );
  return row?.raw_tokens ?? undefined;
}

/** The one op that deletes the rows older than the cutoff (the `intel_calls_at` index counts them); undefined when there are none. */
export async function expiredIntelCallsOp(store: Reader, cutoff: number): Promise<WriteOp | undefined> {
  const expired =
    (await store.read<{ n: number }>(`SELECT COUNT(*) AS n FROM ${TABLE} WHERE at < ?`, [cutoff]))[0]?.n ?? 0;
  return Number(expired) > 0 ? { op: 'deleteBefore', table: TABLE, before: { at: cutoff } } : undefined;
}

export async function intelCallSums(store: Reader): Promise<IntelCallSums> {
  // The UTC day as a whole number, in SQL both SQLite and PostgreSQL run alike (BIGINT division truncates).
  const [total, days, powers, summarizers, cache, notStored] = await Promise.all([
    store.read<Aggregate>(`SELECT ${SUMS} FROM ${TABLE}`),
    store.read<Aggregate & { day: number }>(
      `SELECT CAST(at AS BIGINT) / ${DAY_MS} AS day, ${SUMS} FROM ${TABLE} GROUP BY 1 ORDER BY 1`,
    ),
    store.read<Aggregate & { power: string }>(
      `SELECT power, ${SUMS} FROM ${TABLE} GROUP BY power ORDER BY SUM(raw_tokens) - SUM(delivered_tokens) DESC`,
    ),
    store.read<{ summarizer: string; n: number }>(`SELECT summarizer, COUNT(*) AS n FROM ${TABLE} GROUP BY summarizer`),
    store.read<{ cache: string; n: number }>(`SELECT cache, COUNT(*) AS n FROM ${TABLE} GROUP BY cache`),
    store.read<{ n: number }>(`SELECT COUNT(*) AS n FROM ${TABLE} WHERE stored = 0`),
  ]);
  return {
    total: total[0] ?? { n: 0, raw: 0, delivered: 0 },
    days: days.map((row) => ({ ...row, day: new Date(Number(row.day) * DAY_MS).toISOString().slice(0, 10) })),
    powers,
    summarizers,
    cache,
    notStored: notStored[0]?.n ?? 0,
  };
}
