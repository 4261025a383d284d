import type { ResolvedCandidate } from './resolution.js';

const round = (x: number) => Math.round(x * 1000) / 1000;

/** "Why this power": what matched, how sure the calibration is, and what history added. */
export function explainCandidate(candidate: ResolvedCandidate): Record<string, unknown> {
  const explanation = candidate.explanation;
  return {
    relevance: {
      lexical_score: round(candidate.score),
      strength: candidate.normalized,
      coverage: candidate.coverage,
      matched_terms: candidate.matchedTerms,
      match_type: candidate.matchType,
      ...(candidate.semantic !== undefined ? { semantic_similarity: candidate.semantic } : {}),
    },
    confidence: candidate.confidence,
    ...(explanation
      ? {
          learned: {
            relative_relevance: round(explanation.relevance),
            factors: Object.fromEntries(Object.entries(explanation.factors).map(([k, v]) => [k, round(v)])),
            contributions: Object.fromEntries(Object.entries(explanation.contributions).map(([k, v]) => [k, round(v)])),
            final_score: round(explanation.final),
            moved_by_history: explanation.moved,
          },
        }
      : {}),
    ...(candidate.flags.length ? { flags: candidate.flags } : {}),
  };
}
