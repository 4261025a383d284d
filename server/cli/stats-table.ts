import { REQUEST_MODEL_TEXT, toolListVerdict } from '../../protocol/request-model.js';
import type { RankingWeightsInfo, RecommendationStats, TokenReportInfo } from '../../protocol/records.js';

/** `grimoire stats --json`: the same records (and casing) the dashboard gets over JSON-RPC. */
export interface StatsReport {
  recommendations: Pick<RecommendationStats, 'all' | 'resolveIntent' | 'retrieveTools'>;
  /** Calls per status. */
  calls: Record<string, number>;
  activityRows: number;
  weights: RankingWeightsInfo;
  tokens: TokenReportInfo;
  tuning?: { tuned: boolean; samples: number; mrrBefore: number; mrrAfter: number; reason?: string };
}

const cell = (value: number | null): string => (value === null ? '-' : String(value));

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return (
    rows
      .map((row) =>
        row
          .map((text, i) => (i === 0 ? text.padEnd(widths[i]!) : text.padStart(widths[i]!)))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

/** `grimoire stats` without --json: the report as a few small tables. */
export function statsTable(report: StatsReport): string {
  const recommendations = table([
    ['recommendations', 'shown', 'followed', 'MRR', 'P@1', 'P@3'],
    ...(
      [
        ['all', 'all'],
        ['resolve_intent', 'resolveIntent'],
        ['retrieve_tools', 'retrieveTools'],
      ] as const
    ).map(([source, key]) => {
      const m = report.recommendations[key];
      return [
        source,
        String(m.recommendations),
        String(m.followed),
        cell(m.mrr),
        cell(m.precisionAt1),
        cell(m.precisionAt3),
      ];
    }),
  ]);
  const statuses = Object.entries(report.calls).sort(([a], [b]) => a.localeCompare(b));
  const calls = table([
    ['calls', 'count'],
    ...statuses.map(([status, n]) => [status, String(n)]),
    ['total', String(report.activityRows)],
  ]);
  const weights = table([
    ['ranking weight', 'value'],
    ...Object.entries(report.weights).map(([name, value]) => [name, String(Math.round(value * 1000) / 1000)]),
  ]);
  const t = report.tokens;
  const tokens = table([
    ['tokens', 'results', 'raw', 'delivered', 'saved', 'reduction'],
    [
      'summarized results',
      String(t.summarized.results),
      String(t.summarized.rawTokens),
      String(t.summarized.deliveredTokens),
      String(t.summarized.savedTokens),
      String(t.summarized.reduction),
    ],
    [
      'tool list per request (configured powers direct vs gateway)',
      String(t.toolsList.configured.tools),
      String(t.toolsList.configured.tokens),
      String(t.toolsList.gateway.tokens),
      String(t.toolsList.savedTokens),
      String(t.toolsList.reduction),
    ],
  ]);
  const perRequest = `${REQUEST_MODEL_TEXT}\n${toolListVerdict(t.toolsList)}\n`;
  const cache =
    `result cache: ${t.cache.hits} hits, ${t.cache.misses} misses, ` +
    `${t.cache.similar} similar (hit rate ${t.cache.hitRate}); artifacts: ` +
    `${t.artifacts.count} (${t.artifacts.bytes} bytes)\n`;
  const tuning = report.tuning
    ? `tuning: ${report.tuning.tuned ? 'weights refitted and saved' : 'weights kept'} on ` +
      `${report.tuning.samples} samples, MRR ${report.tuning.mrrBefore} -> ` +
      `${report.tuning.mrrAfter}${report.tuning.reason ? ` (${report.tuning.reason})` : ''}\n`
    : '';
  return [recommendations, calls, weights, tokens + perRequest, cache + tuning].join('\n');
}
