/** Recommendation quality (MRR, precision@k of what the agent used), the ranking weights, tuning, and "why this power". */
import type { ResolvedCandidate } from '../gateway/resolution.js';
import type { HistoryMetricsBySource } from '../ranking/history-metrics.js';
import { DEFAULT_WEIGHTS, type RankingWeights } from '../ranking/learned-ranking.js';
import { MIN_SAMPLES, type TuningResult } from '../ranking/tune-weights.js';
import type {
  RankingWeightsInfo,
  RecommendationStats,
  ScoreExplanation,
  TuneWeightsResult,
} from '../../protocol/records.js';

const round = (x: number) => Math.round(x * 1000) / 1000;

/** Only the five weights (a saved tuning may carry more keys). */
export function weightsInfo(weights: RankingWeights): RankingWeightsInfo {
  return {
    relevance: weights.relevance,
    success: weights.success,
    popularity: weights.popularity,
    performance: weights.performance,
    rating: weights.rating,
  };
}

export function recommendationStats(
  metrics: HistoryMetricsBySource,
  weights: RankingWeights,
  learning: boolean,
): RecommendationStats {
  return {
    ...metrics,
    weights: weightsInfo(weights),
    defaultWeights: weightsInfo(DEFAULT_WEIGHTS),
    minSamples: MIN_SAMPLES,
    learning,
  };
}

export function tuneResult(tuning: TuningResult, stats: RecommendationStats): TuneWeightsResult {
  return {
    tuned: tuning.tuned,
    samples: tuning.samples,
    mrrBefore: round(tuning.mrrBefore),
    mrrAfter: round(tuning.mrrAfter),
    weights: weightsInfo(tuning.weights),
    ...(tuning.reason ? { reason: tuning.reason } : {}),
    stats,
  };
}

/**
 * The same figures `resolve_intent` with `explain: true` gives the agent (explainCandidate in
 * server/gateway/gateway-tool-handlers.ts), typed.
 */
export function scoreExplanation(candidate: ResolvedCandidate): ScoreExplanation | undefined {
  const explanation = candidate.explanation;
  if (!explanation) return undefined;
  const { success, popularity, performance, rating, calls } = explanation.factors;
  return {
    lexicalScore: round(candidate.score),
    ...(candidate.normalized !== undefined ? { strength: round(candidate.normalized) } : {}),
    ...(candidate.coverage !== undefined ? { coverage: round(candidate.coverage) } : {}),
    ...(candidate.semantic !== undefined ? { semantic: round(candidate.semantic) } : {}),
    relativeRelevance: round(explanation.relevance),
    factors: {
      success: round(success),
      popularity: round(popularity),
      performance: round(performance),
      rating: round(rating),
      calls,
    },
    contributions: {
      relevance: round(explanation.contributions.relevance),
      success: round(explanation.contributions.success),
      popularity: round(explanation.contributions.popularity),
      performance: round(explanation.contributions.performance),
      rating: round(explanation.contributions.rating),
    },
    finalScore: round(explanation.final),
    movedByHistory: explanation.moved,
  };
}
