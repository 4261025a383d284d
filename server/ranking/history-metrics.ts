import type { RecommendationMetricsInfo } from '../../protocol/records.js';
import { rerank, type RankingWeights } from './learned-ranking.js';
import type { HistorySums, Recommendation } from './recommendations.js';

const round = (x: number) => Math.round(x * 1000) / 1000;

/** The metrics per source and over all, as the stats report them. */
export type HistoryMetricsBySource = Record<'all' | 'resolveIntent' | 'retrieveTools', RecommendationMetricsInfo>;

/** MRR and precision@k of the candidate the agent used, over the recommendations it followed. */
export function metricsOf(sums: HistorySums): RecommendationMetricsInfo {
  const mean = (sum: number) => (sums.followed ? round(sum / sums.followed) : null);
  return {
    recommendations: sums.recommendations,
    followed: sums.followed,
    mrr: mean(sums.reciprocalRanks),
    precisionAt1: mean(sums.atRank1),
    precisionAt3: mean(sums.withinRank3),
  };
}

/** The sums of recommendations held in memory. */
export function historySums(history: Recommendation[]): HistorySums {
  const ranks = history.flatMap((r) => (r.usedRank === undefined ? [] : [r.usedRank]));
  return {
    recommendations: history.length,
    followed: ranks.length,
    reciprocalRanks: ranks.reduce((s, rank) => s + 1 / (rank + 1), 0),
    atRank1: ranks.filter((rank) => rank === 0).length,
    withinRank3: ranks.filter((rank) => rank < 3).length,
  };
}

/** Per source and over all, from the sums per source. */
export function metricsBySource(sums: Partial<Record<Recommendation['source'], HistorySums>>): HistoryMetricsBySource {
  const none: HistorySums = { recommendations: 0, followed: 0, reciprocalRanks: 0, atRank1: 0, withinRank3: 0 };
  const resolveIntent = sums.resolve_intent ?? none;
  const retrieveTools = sums.retrieve_tools ?? none;
  const all = Object.fromEntries(
    Object.keys(none).map((key) => [
      key,
      resolveIntent[key as keyof HistorySums] + retrieveTools[key as keyof HistorySums],
    ]),
  ) as unknown as HistorySums;
  return { all: metricsOf(all), resolveIntent: metricsOf(resolveIntent), retrieveTools: metricsOf(retrieveTools) };
}

/** The MRR the followed recommendations would have had under `weights`. */
export function replayMrr(history: Recommendation[], weights: RankingWeights): number {
  const followed = history.filter((r) => r.used !== undefined);
  if (followed.length === 0) return 0;
  let total = 0;
  for (const recommendation of followed) {
    const factors = new Map(recommendation.candidates.map((c) => [c.name, c.factors]));
    const order = rerank(recommendation.candidates, (name) => factors.get(name), weights);
    const rank = order.findIndex(
      (c) => c.name === recommendation.used || recommendation.used!.startsWith(`${c.name}:`),
    );
    total += rank < 0 ? 0 : 1 / (rank + 1);
  }
  return total / followed.length;
}
