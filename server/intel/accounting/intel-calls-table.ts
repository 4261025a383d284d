/**
 * The one module that speaks SQL to the `intel_calls` table (one row per summarized or cache-served
 * result: its raw and delivered tokens). The token ledger writes and prunes through it, the token
 * report reads its sums from it.
 */
import type { Store, WriteOp } from '../../store/store.js';

const TABLE = 'intel_calls';
const SUMS = 'COUNT(*) AS n, SUM(raw_tokens) AS raw, SUM(delivered_tokens) AS delivered';

type Reader = Pick<Store, 'query'>;

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
export function rawTokensOf(store: Reader, artifactId: string): number | undefined {
  const row = store.query<{ raw_tokens: number | null }>(`SELECT raw_tokens FROM ${TABLE} WHERE artifact_id = ? AND cache != 'hit' AND raw_tokens IS NOT NULL LIMIT 1`, [artifactId])[0];
  return row?.raw_tokens ?? undefined;
}

/** The one op that deletes the rows older than the cutoff (the `intel_calls_at` index counts them); undefined when there are none. */
export function expiredIntelCallsOp(store: Reader, cutoff: number): WriteOp | undefined {
  const expired = store.query<{ n: number }>(`SELECT COUNT(*) AS n FROM ${TABLE} WHERE at < ?`, [cutoff])[0]?.n ?? 0;
  return Number(expired) > 0 ? { op: 'deleteBefore', table: TABLE, before: { at: cutoff } } : undefined;
}

export function intelCallSums(store: Reader): IntelCallSums {
  return {
    total: store.query<Aggregate>(`SELECT ${SUMS} FROM ${TABLE}`)[0] ?? { n: 0, raw: 0, delivered: 0 },
    days: store.query<Aggregate & { day: string }>(`SELECT date(at / 1000, 'unixepoch') AS day, ${SUMS} FROM ${TABLE} GROUP BY day ORDER BY day`),
    powers: store.query<Aggregate & { power: string }>(`SELECT power, ${SUMS} FROM ${TABLE} GROUP BY power ORDER BY SUM(raw_tokens) - SUM(delivered_tokens) DESC`),
    summarizers: store.query<{ summarizer: string; n: number }>(`SELECT summarizer, COUNT(*) AS n FROM ${TABLE} GROUP BY summarizer`),
    cache: store.query<{ cache: string; n: number }>(`SELECT cache, COUNT(*) AS n FROM ${TABLE} GROUP BY cache`),
    notStored: store.query<{ n: number }>(`SELECT COUNT(*) AS n FROM ${TABLE} WHERE stored = 0`)[0]?.n ?? 0,
  };
}
