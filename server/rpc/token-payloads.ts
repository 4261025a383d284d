/** The intelligence layer's token report (server/intel), as the protocol carries it. */
import type { TokenReport, Totals } from '../intel/accounting/token-report.js';
import type { TokenReportInfo, TokenTotals } from './protocol.js';

function totals(t: Totals): TokenTotals {
  return { results: t.results, rawTokens: t.raw_tokens, deliveredTokens: t.delivered_tokens, savedTokens: t.saved_tokens, reduction: t.reduction };
}

export function tokenReportInfo(report: TokenReport): TokenReportInfo {
  return {
    tokenizer: report.tokenizer,
    summarized: totals(report.summarized),
    byDay: report.by_day.map((day) => ({ day: day.day, ...totals(day) })),
    byPower: report.by_power.map((power) => ({ power: power.power, ...totals(power) })),
    bySummarizer: { ...report.by_summarizer },
    cache: { hits: report.cache.hits, misses: report.cache.misses, similar: report.cache.similar, hitRate: report.cache.hit_rate },
    notStored: report.not_stored,
    artifacts: { count: report.artifacts.count, bytes: report.artifacts.bytes, maxBytes: report.artifacts.max_bytes, ttlMinutes: report.artifacts.ttl_minutes },
    toolsList: {
      gateway: { tools: report.tools_list.gateway.tools, tokens: report.tools_list.gateway.tokens },
      allPowers: { powers: report.tools_list.all_powers.powers, tools: report.tools_list.all_powers.tools, tokens: report.tools_list.all_powers.tokens },
      savedTokens: report.tools_list.saved_tokens,
      reduction: report.tools_list.reduction,
    },
    sessions: {
      rows: report.sessions.rows.map((row) => ({
        session: row.session,
        startedAt: row.started_at,
        lastAt: row.last_at,
        gateway: {
          toolsLists: row.gateway.tools_lists,
          toolsListTokens: row.gateway.tools_list_tokens,
          answers: row.gateway.answers,
          answerTokens: row.gateway.answer_tokens,
          results: row.gateway.results,
          resultTokens: row.gateway.result_tokens,
          tokens: row.gateway.tokens,
        },
        direct: { toolsListTokens: row.direct.tools_list_tokens, resultTokens: row.direct.result_tokens, tokens: row.direct.tokens },
        savedTokens: row.saved_tokens,
      })),
      totals: {
        gatewayTokens: report.sessions.totals.gateway_tokens,
        directTokens: report.sessions.totals.direct_tokens,
        savedTokens: report.sessions.totals.saved_tokens,
        reduction: report.sessions.totals.reduction,
      },
    },
  };
}
