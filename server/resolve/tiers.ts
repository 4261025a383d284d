import type { Tier } from '../../protocol/records.js';
import type { PowerScore, TierThresholds } from './types.js';

export interface TierDecision<T extends PowerScore = PowerScore> {
  tier: Tier;
  /** The powers to show for this tier: the top one, the top 3, the top 5, or none. */
  candidates: T[];
}

/** How many candidates each tier shows. */
export const TIER_SIZE = { activated: 1, multiple_matches: 3, weak_matches: 5, not_found: 0 } as const;

/**
 * The tier is decided by the top's confidence alone; the tier then shows the top candidates by
 * rank (each with its own confidence), whatever their spread: real alternatives, not only those
 * that clear a threshold of their own. A candidate that matched nothing at all is not one.
 */
export function decideTier<T extends PowerScore>(ranked: T[], thresholds: TierThresholds): TierDecision<T> {
  const best = ranked[0]?.confidence ?? 0;
  const confident: Tier =
    best >= thresholds.multipleThreshold
      ? 'multiple_matches'
      : best >= thresholds.weakThreshold
        ? 'weak_matches'
        : 'not_found';
  const tier: Tier =
    best >= thresholds.activateThreshold && mayAutoActivate(ranked[0]) && understood(ranked[0])
      ? 'activated'
      : confident;
  return { tier, candidates: topCandidates(ranked, TIER_SIZE[tier]) };
}

/**
 * How much of a match may be in passing (on words only a power's tools' prose or parameter names
 * have) for it to auto-activate: less than half for any power, less than a quarter for one whose
 * tools can write or run commands. Above it, however confident, the power is offered, not started.
 */
export const MAX_INCIDENTAL = { any: 0.5, writes: 0.25 } as const;

/** A match mostly on words the power does not declare itself by never starts it. */
export function mayAutoActivate(top: Pick<PowerScore, 'incidental'>, options: { writes?: boolean } = {}): boolean {
  return (top.incidental ?? 0) < (options.writes ? MAX_INCIDENTAL.writes : MAX_INCIDENTAL.any);
}

/**
 * A lexical match starts a power on one word only when that word is the power's name or one of
 * its keywords (what it declares itself by: "remember that..." for a memory power); otherwise it
 * takes two or more of the request's own words. One word met in a tool's name or prose, however
 * rare in the catalog ("how long ago was..." meeting a tool named for long-running operations),
 * is a request not understood, and the power is offered instead. Domain tags and phrases are no
 * words of their own; a semantic similarity speaks for the whole request.
 */
function understood(top: Pick<PowerScore, 'matchedTerms' | 'matchType' | 'semantic' | 'identity'>): boolean {
  if (top.semantic !== undefined || top.matchType === 'name' || top.matchType === 'keyword' || (top.identity ?? 0) > 0)
    return true;
  return new Set(top.matchedTerms.filter((term) => !term.startsWith('#') && !term.includes(' '))).size >= 2;
}

/** The first `count` candidates by rank that matched something. */
export function topCandidates<T extends PowerScore>(ranked: T[], count: number): T[] {
  return ranked.slice(0, count).filter((p) => p.score > 0 || p.confidence > 0 || (p.semantic ?? 0) > 0);
}
