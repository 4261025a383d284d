/**
 * What summaries and lazy activation saved, in tokens (o200k_base): totals, per day (UTC) and per
 * power, by summarizer, cache hit rates, the artifact store's use, and what one model request
 * carries (the gateway's list as the agent sees it, plus the tools VS Code lists directly besides
 * it, vs every configured power's tools listed directly), with each session's reads counted per
 * request (request-model.ts). Every list is counted from `toolListText`, each tool whole.
 * `grimoire stats --json` prints it; the dashboard reads the same object (protocol `TokenReportInfo`).
 */
import type { Tool } from '../../util/mcp-types.js';
import type { SessionTokensInfo, TokenReportInfo, TokenTotals } from '../../../protocol/records.js';
import type { Store } from '../../store/store.js';
import { cachedTokenCounts } from '../tokens/token-count-cache.js';
import type { Tokenizer } from '../tokens/tokenizer.js';
import { intelCallSums, type Aggregate } from './intel-calls-table.js';
import { directTokens, toolListText } from '../../../protocol/request-model.js';
import type { SessionReads } from './session-reads.js';

export interface ToolLists {
  gateway: Tool[];
  /**
   * The powers configured now (not disabled), with their tools as last listed; `listed` false when never
   * listed; `direct`: the mcp.json VS Code also offers it from.
   */
  powers: Array<{ power: string; tools: Tool[]; listed: boolean; direct?: string }>;
}

export async function tokenReport(
  store: Store,
  tokenizer: Tokenizer,
  lists: ToolLists,
  artifacts: TokenReportInfo['artifacts'],
  sessions: SessionReads[] = [],
): Promise<TokenReportInfo> {
  const { total, days, powers, summarizers, cache, notStored } = await intelCallSums(store);
  const count = (name: string) => cache.find((row) => row.cache === name)?.n ?? 0;
  const hits = count('hit');
  const misses = count('miss');

  const direct = lists.powers.flatMap((p) => p.tools);
  const twice = lists.powers.filter((p) => p.direct !== undefined && p.tools.length > 0);
  const twiceTools = twice.flatMap((p) => p.tools);
  const [gatewayTokens, listed, alsoDirectList, ...twiceTokens] = await cachedTokenCounts(store.dataDir, tokenizer, [
    toolListText(lists.gateway),
    toolListText(direct),
    toolListText(twiceTools),
    ...twice.map((p) => toolListText(p.tools)),
  ]);
  // No tool configured: nothing to list directly (not the 1 token of '[]'); so for nothing listed twice.
  const directTokens = direct.length > 0 ? listed! : 0;
  const alsoDirect = { tools: twiceTools.length, tokens: twiceTools.length > 0 ? alsoDirectList! : 0 };
  const throughGrimoire = gatewayTokens! + alsoDirect.tokens;
  return {
    tokenizer: tokenizer.name,
    summarized: totals(total),
    byDay: days.map((row) => ({ day: row.day, ...totals(row) })),
    byPower: powers.map((row) => ({ power: row.power, ...totals(row) })),
    bySummarizer: Object.fromEntries(summarizers.map((row) => [row.summarizer, row.n])),
    cache: { hits, misses, similar: count('similar'), hitRate: hits + misses > 0 ? round(hits / (hits + misses)) : 0 },
    notStored,
    artifacts,
    toolsList: {
      gateway: { tools: lists.gateway.length, tokens: gatewayTokens! },
      configured: {
        powers: lists.powers.length,
        unlisted: lists.powers.filter((p) => !p.listed).length,
        tools: direct.length,
        tokens: directTokens,
      },
      alsoDirect,
      savedTokens: directTokens - throughGrimoire,
      reduction: directTokens > 0 ? round(1 - throughGrimoire / directTokens) : 0,
      listedTwice: twice.map((p, i) => ({
        power: p.power,
        file: p.direct!,
        tools: p.tools.length,
        tokens: twiceTokens[i]!,
      })),
    },
    sessions: sessionTokens(sessions, directTokens, alsoDirect.tokens),
  };
}

/** `alsoDirect`: the tools VS Code lists directly besides Grimoire's, on each request of a VS Code session. */
function sessionTokens(
  sessions: SessionReads[],
  configuredList: number,
  alsoDirect: number,
): TokenReportInfo['sessions'] {
  const rows = sessions.map((s): SessionTokensInfo => {
    const alsoDirectTokens = s.vsCode ? s.requests * alsoDirect : 0;
    const gateway = s.requestListTokens + alsoDirectTokens + s.answerTokens + s.deliveredTokens;
    const direct = directTokens(s.results, configuredList, s.rawTokens);
    return {
      session: s.session,
      startedAt: s.startedAt,
      lastAt: s.lastAt,
      gateway: {
        requests: s.requests,
        toolsLists: s.toolsLists,
        toolsListTokens: s.requestListTokens,
        alsoDirectTokens,
        answers: s.answers,
        answerTokens: s.answerTokens,
        results: s.results,
        resultTokens: s.deliveredTokens,
        tokens: gateway,
      },
      direct: {
        requests: direct.requests,
        toolsListTokens: direct.toolsListTokens,
        resultTokens: s.rawTokens,
        tokens: direct.tokens,
      },
      savedTokens: direct.tokens - gateway,
    };
  });
  const gateway = rows.reduce((sum, r) => sum + r.gateway.tokens, 0);
  const direct = rows.reduce((sum, r) => sum + r.direct.tokens, 0);
  const extraRequests = rows.reduce((sum, r) => sum + r.gateway.answers, 0);
  const alsoDirectTokens = rows.reduce((sum, r) => sum + r.gateway.alsoDirectTokens, 0);
  return {
    rows,
    totals: {
      gatewayTokens: gateway,
      directTokens: direct,
      savedTokens: direct - gateway,
      reduction: direct > 0 ? round(1 - gateway / direct) : 0,
      extraRequests,
      alsoDirectTokens,
    },
  };
}

function totals(row: Aggregate): TokenTotals {
  const raw = row.raw ?? 0;
  const delivered = row.delivered ?? 0;
  return {
    results: row.n,
    rawTokens: raw,
    deliveredTokens: delivered,
    savedTokens: raw - delivered,
    reduction: raw > 0 ? round(1 - delivered / raw) : 0,
  };
}

const round = (x: number) => Math.round(x * 1000) / 1000;
