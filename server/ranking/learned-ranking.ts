import type { RankingWeightsInfo } from '../../protocol/records.js';
import { NEUTRAL, type UsageFactors } from './usage-group.js';

export type RankingWeights = RankingWeightsInfo;

/** The recommendation design's defaults. They always sum to 1. */
export const DEFAULT_WEIGHTS: RankingWeights = {
  relevance: 0.35,
  success: 0.25,
  popularity: 0.15,
  performance: 0.15,
  rating: 0.1,
};

/** Candidates whose relevance is within this of their group's leader may trade places. */
export const CLOSE_RELEVANCE = 0.1;

export interface RankedCandidate {
  name: string;
  /** 0..1, relative to the most relevant candidate. */
  relevance: number;
}

export interface FactorExplanation {
  relevance: number;
  factors: UsageFactors;
  /** Each factor's weighted contribution to the final score. */
  contributions: RankingWeights;
  final: number;
  /** The candidate moved because of learned factors. */
  moved: boolean;
}

export function finalScore(
  relevance: number,
  factors: UsageFactors,
  weights: RankingWeights,
): { final: number; contributions: RankingWeights } {
  const contributions: RankingWeights = {
    relevance: weights.relevance * relevance,
    success: weights.success * factors.success,
    popularity: weights.popularity * factors.popularity,
    performance: weights.performance * factors.performance,
    rating: weights.rating * factors.rating,
  };
  const final = Object.values(contributions).reduce((a, b) => a + b, 0);
  return { final, contributions };
}

/**
 * Re-ranks by learned factors, but only within groups of candidates whose relevance is close
 * (within CLOSE_RELEVANCE of the group's most relevant one): history settles near-ties, it never
 * lifts a candidate over a clearly more relevant one. Candidates come in relevance order.
 */
export function rerank<T extends RankedCandidate>(
  candidates: T[],
  factorsOf: (name: string) => UsageFactors | undefined,
  weights: RankingWeights,
): Array<T & { explanation: FactorExplanation }> {
  const explained = candidates.map((candidate, index) => {
    const factors = factorsOf(candidate.name) ?? NEUTRAL;
    return { candidate, index, factors, ...finalScore(candidate.relevance, factors, weights) };
  });
  const out: Array<T & { explanation: FactorExplanation }> = [];
  for (let start = 0; start < explained.length;) {
    let end = start + 1;
    while (
      end < explained.length &&
      explained[start].candidate.relevance - explained[end].candidate.relevance <= CLOSE_RELEVANCE
    )
      end += 1;
    const group = explained.slice(start, end).sort((a, b) => b.final - a.final || a.index - b.index);
    group.forEach((entry, offset) => {
      out.push({
        ...entry.candidate,
        explanation: {
          relevance: entry.candidate.relevance,
          factors: entry.factors,
          contributions: entry.contributions,
          final: entry.final,
          moved: entry.index !== start + offset,
        },
      });
    });
    start = end;
  }
  return out;
}
