/**
 * What summaries and lazy activation saved, in tokens (o200k_base): totals, per day (UTC) and per
 * power, by summarizer, cache hit rates, the artifact store's use, and the tools/list comparison
 * (the gateway's list as the agent sees it vs every known power's tools listed directly).
 * `grimoire stats --json` prints it; the dashboard reads the same object.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Store } from '../../store/store.js';
import type { Tokenizer } from '../tokens/tokenizer.js';
import type { SessionReads } from './session-reads.js';

export interface Totals {
  results: number;
  raw_tokens: number;
  delivered_tokens: number;
  saved_tokens: number;
  /** 1 - delivered / raw; 0 when nothing was summarized. */
  reduction: number;
}

export interface TokenReport {
  tokenizer: string;
  summarized: Totals;
  by_day: Array<Totals & { day: string }>;
  by_power: Array<Totals & { power: string }>;
  by_summarizer: Record<string, number>;
  cache: { hits: number; misses: number; similar: number; hit_rate: number };
  not_stored: number;
  artifacts: { count: number; bytes: number; max_bytes: number; ttl_minutes: number };
  tools_list: {
    /** Tools and tokens of the list the agent gets from the gateway now. */
    gateway: { tools: number; tokens: number };
    /** Every known power's tools, as if each server were connected directly. */
    all_powers: { powers: number; tools: number; tokens: number };
    saved_tokens: number;
    reduction: number;
  };
  /**
   * Per MCP session (newest first): what its agent read through the gateway (every tools/list
   * served, every gateway answer, every result as delivered) against direct exposure of the same
   * powers (every known power's tools listed once, and the raw results).
   */
  sessions: {
    rows: SessionTokens[];
    totals: { gateway_tokens: number; direct_tokens: number; saved_tokens: number; reduction: number };
  };
}

export interface SessionTokens {
  session: string;
  started_at: number;
  last_at: number;
  gateway: { tools_lists: number; tools_list_tokens: number; answers: number; answer_tokens: number; results: number; result_tokens: number; tokens: number };
  direct: { tools_list_tokens: number; result_tokens: number; tokens: number };
  saved_tokens: number;
}

export interface ToolLists {
  gateway: Tool[];
  powers: Array<{ power: string; tools: Tool[] }>;
}

interface Aggregate {
  n: number;
  raw: number | null;
  delivered: number | null;
}

const TABLE = 'intel_calls';
const SUMS = 'COUNT(*) AS n, SUM(raw_tokens) AS raw, SUM(delivered_tokens) AS delivered';

export async function tokenReport(
  store: Store,
  tokenizer: Tokenizer,
  lists: ToolLists,
  artifacts: TokenReport['artifacts'],
  sessions: SessionReads[] = [],
): Promise<TokenReport> {
  const total = store.query<Aggregate>(`SELECT ${SUMS} FROM ${TABLE}`)[0] ?? { n: 0, raw: 0, delivered: 0 };
  const days = store.query<Aggregate & { day: string }>(`SELECT date(at / 1000, 'unixepoch') AS day, ${SUMS} FROM ${TABLE} GROUP BY day ORDER BY day`);
  const powers = store.query<Aggregate & { power: string }>(`SELECT power, ${SUMS} FROM ${TABLE} GROUP BY power ORDER BY SUM(raw_tokens) - SUM(delivered_tokens) DESC`);
  const summarizers = store.query<{ summarizer: string; n: number }>(`SELECT summarizer, COUNT(*) AS n FROM ${TABLE} GROUP BY summarizer`);
  const cache = store.query<{ cache: string; n: number }>(`SELECT cache, COUNT(*) AS n FROM ${TABLE} GROUP BY cache`);
  const notStored = store.query<{ n: number }>(`SELECT COUNT(*) AS n FROM ${TABLE} WHERE stored = 0`)[0]?.n ?? 0;
  const count = (name: string) => cache.find((row) => row.cache === name)?.n ?? 0;
  const hits = count('hit');
  const misses = count('miss');

  const direct = lists.powers.flatMap((p) => p.tools);
  const [gatewayTokens, directTokens] = await tokenizer.count([JSON.stringify(lists.gateway), JSON.stringify(direct)]);
  return {
    tokenizer: tokenizer.name,
    summarized: totals(total),
    by_day: days.map((row) => ({ day: row.day, ...totals(row) })),
    by_power: powers.map((row) => ({ power: row.power, ...totals(row) })),
    by_summarizer: Object.fromEntries(summarizers.map((row) => [row.summarizer, row.n])),
    cache: { hits, misses, similar: count('similar'), hit_rate: hits + misses > 0 ? round(hits / (hits + misses)) : 0 },
    not_stored: notStored,
    artifacts,
    tools_list: {
      gateway: { tools: lists.gateway.length, tokens: gatewayTokens! },
      all_powers: { powers: lists.powers.length, tools: direct.length, tokens: directTokens! },
      saved_tokens: Math.max(0, directTokens! - gatewayTokens!),
      reduction: directTokens! > 0 ? round(Math.max(0, 1 - gatewayTokens! / directTokens!)) : 0,
    },
    sessions: sessionTokens(sessions, directTokens!),
  };
}

function sessionTokens(sessions: SessionReads[], directList: number): TokenReport['sessions'] {
  const rows = sessions.map((s): SessionTokens => {
    const gateway = s.toolsListTokens + s.answerTokens + s.deliveredTokens;
    const direct = directList + s.rawTokens;
    return {
      session: s.session,
      started_at: s.startedAt,
      last_at: s.lastAt,
      gateway: { tools_lists: s.toolsLists, tools_list_tokens: s.toolsListTokens, answers: s.answers, answer_tokens: s.answerTokens, results: s.results, result_tokens: s.deliveredTokens, tokens: gateway },
      direct: { tools_list_tokens: directList, result_tokens: s.rawTokens, tokens: direct },
      saved_tokens: direct - gateway,
    };
  });
  const gateway = rows.reduce((sum, r) => sum + r.gateway.tokens, 0);
  const direct = rows.reduce((sum, r) => sum + r.direct.tokens, 0);
  return { rows, totals: { gateway_tokens: gateway, direct_tokens: direct, saved_tokens: direct - gateway, reduction: direct > 0 ? round(1 - gateway / direct) : 0 } };
}

function totals(row: Aggregate): Totals {
  const raw = row.raw ?? 0;
  const delivered = row.delivered ?? 0;
  return { results: row.n, raw_tokens: raw, delivered_tokens: delivered, saved_tokens: raw - delivered, reduction: raw > 0 ? round(1 - delivered / raw) : 0 };
}

const round = (x: number) => Math.round(x * 1000) / 1000;
