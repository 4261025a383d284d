import type { PowerScore, Tier, TierThresholds } from './types.js';

export interface TierDecision<T extends PowerScore = PowerScore> {
  tier: Tier;
  /** The powers to show for this tier: the top one, the top 3, the top 5, or none. */
  candidates: T[];
}

export function decideTier<T extends PowerScore>(ranked: T[], thresholds: TierThresholds): TierDecision<T> {
  const best = ranked[0]?.confidence ?? 0;
  if (best >= thresholds.activateThreshold) return { tier: 'activated', candidates: ranked.slice(0, 1) };
  if (best >= thresholds.multipleThreshold) {
    return { tier: 'multiple_matches', candidates: ranked.slice(0, 3).filter((p) => p.confidence >= thresholds.weakThreshold) };
  }
  if (best >= thresholds.weakThreshold) return { tier: 'weak_matches', candidates: ranked.slice(0, 5).filter((p) => p.score > 0) };
  return { tier: 'not_found', candidates: [] };
}
