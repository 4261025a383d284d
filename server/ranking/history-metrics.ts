import type { RecommendationMetricsInfo } from '../../protocol/records.js';
import { rerank, type RankingWeights } from './learned-ranking.js';
import type { Recommendation } from './recommendations.js';

const round = (x: number) => Math.round(x * 1000) / 1000;

/** MRR and precision@k of the candidate the agent used, over the recommendations it followed. */
export function historyMetrics(history: Recommendation[]): RecommendationMetricsInfo {
  const followed = history.filter((r) => r.usedRank !== undefined);
  const mean = (f: (rank: number) => number) => (followed.length ? round(followed.reduce((s, r) => s + f(r.usedRank!), 0) / followed.length) : null);
  return {
    recommendations: history.length,
    followed: followed.length,
    mrr: mean((rank) => 1 / (rank + 1)),
    precisionAt1: mean((rank) => (rank === 0 ? 1 : 0)),
    precisionAt3: mean((rank) => (rank < 3 ? 1 : 0)),
  };
}

/** The MRR the followed recommendations would have had under `weights`. */
export function replayMrr(history: Recommendation[], weights: RankingWeights): number {
  const followed = history.filter((r) => r.used !== undefined);
  if (followed.length === 0) return 0;
  let total = 0;
  for (const recommendation of followed) {
    const factors = new Map(recommendation.candidates.map((c) => [c.name, c.factors]));
    const order = rerank(recommendation.candidates, (name) => factors.get(name), weights);
    const rank = order.findIndex((c) => c.name === recommendation.used || recommendation.used!.startsWith(`${c.name}:`));
    total += rank < 0 ? 0 : 1 / (rank + 1);
  }
  return total / followed.length;
}
