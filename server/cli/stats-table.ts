import type { TokenReport } from '../intel/accounting/token-report.js';
import type { HistoryMetrics } from '../ranking/history-metrics.js';
import type { RankingWeights } from '../ranking/learned-ranking.js';

export interface StatsReport {
  recommendations: Record<'all' | 'resolve_intent' | 'retrieve_tools', HistoryMetrics>;
  calls: Record<string, number>;
  activity_rows: number;
  weights: RankingWeights;
  tokens: TokenReport;
  tuning?: { tuned: boolean; samples: number; mrr_before: number; mrr_after: number; reason?: string };
}

const cell = (value: number | null): string => (value === null ? '-' : String(value));

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map((row) => row.map((text, i) => (i === 0 ? text.padEnd(widths[i]!) : text.padStart(widths[i]!))).join('  ').trimEnd()).join('\n') + '\n';
}

/** `grimoire stats` without --json: the report as a few small tables. */
export function statsTable(report: StatsReport): string {
  const recommendations = table([
    ['recommendations', 'shown', 'followed', 'MRR', 'P@1', 'P@3'],
    ...(['all', 'resolve_intent', 'retrieve_tools'] as const).map((source) => {
      const m = report.recommendations[source];
      return [source, String(m.recommendations), String(m.followed), cell(m.mrr), cell(m.precision_at_1), cell(m.precision_at_3)];
    }),
  ]);
  const statuses = Object.entries(report.calls).sort(([a], [b]) => a.localeCompare(b));
  const calls = table([['calls', 'count'], ...statuses.map(([status, n]) => [status, String(n)]), ['total', String(report.activity_rows)]]);
  const weights = table([['ranking weight', 'value'], ...Object.entries(report.weights).map(([name, value]) => [name, String(Math.round(value * 1000) / 1000)])]);
  const t = report.tokens;
  const tokens = table([
    ['tokens', 'results', 'raw', 'delivered', 'saved', 'reduction'],
    ['summarized results', String(t.summarized.results), String(t.summarized.raw_tokens), String(t.summarized.delivered_tokens), String(t.summarized.saved_tokens), String(t.summarized.reduction)],
    ['tools/list (gateway vs all powers)', String(t.tools_list.all_powers.tools), String(t.tools_list.all_powers.tokens), String(t.tools_list.gateway.tokens), String(t.tools_list.saved_tokens), String(t.tools_list.reduction)],
  ]);
  const cache = `result cache: ${t.cache.hits} hits, ${t.cache.misses} misses, ${t.cache.similar} similar (hit rate ${t.cache.hit_rate}); artifacts: ${t.artifacts.count} (${t.artifacts.bytes} bytes)\n`;
  const tuning = report.tuning
    ? `tuning: ${report.tuning.tuned ? 'weights refitted and saved' : 'weights kept'} on ${report.tuning.samples} samples, MRR ${report.tuning.mrr_before} -> ${report.tuning.mrr_after}${report.tuning.reason ? ` (${report.tuning.reason})` : ''}\n`
    : '';
  return [recommendations, calls, weights, tokens, cache + tuning].join('\n');
}
