/** Ranking metrics for one query, given the rank (0-based) of every ground-truth hit. */
import type { Tier } from '../../protocol/records.js';

export interface QueryOutcome {
  /** 0-based rank of the first relevant result, or undefined when none is ranked. */
  firstRelevant?: number;
  /** 0-based ranks of all relevant results that were ranked. */
  relevantRanks: number[];
  relevantCount: number;
  tier: string;
  /** The tier auto-activated and its top-1 was relevant. */
  activatedCorrect: boolean;
  /** A relevant result is among the candidates the tier shows the agent. */
  shown: boolean;
  shownCount: number;
  ms: number;
  /** The resolve_intent answer lets the agent call a right tool at once (tool level, with a catalog). */
  oneTrip?: boolean;
  /** That answer's size in o200k_base tokens. */
  answerTokens?: number;
  /** That answer's tier, decided on the power ranking as the gateway decides it. */
  answerTier?: string;
}

export interface BenchSummary {
  n: number;
  hit_at_1: number;
  hit_at_3: number;
  mrr: number;
  ndcg_at_5: number;
  recall_at_5: number;
  tiers: Record<Tier, number>;
  activated_precision: number | null;
  /** Share of queries whose answer shows a relevant candidate (the activated one, the top 3 or the top 5). */
  answer_shows_relevant: number;
  /** Mean number of candidates the answers show. */
  mean_shown: number;
  p50_ms: number;
  p95_ms: number;
  /** Share of queries whose resolve_intent answer lets the agent call a right tool at once (tool level). */
  one_trip?: number;
  /** Median resolve_intent answer size, o200k_base tokens (tool level). */
  answer_tokens_p50?: number;
  answer_tokens_p95?: number;
  /** The tiers of those answers (`tiers` above is the tool ranking's), and how many activations held a right tool. */
  answer_tiers?: Record<Tier, number>;
  answer_activated_precision?: number | null;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

export function summarize(outcomes: QueryOutcome[]): BenchSummary {
  const n = outcomes.length;
  const mean = (f: (o: QueryOutcome) => number) => (n ? round(outcomes.reduce((s, o) => s + f(o), 0) / n) : 0);
  const tiers = { activated: 0, multiple_matches: 0, weak_matches: 0, not_found: 0 };
  for (const o of outcomes) tiers[o.tier as keyof typeof tiers] += 1;
  const activated = outcomes.filter((o) => o.tier === 'activated');
  const times = outcomes.map((o) => o.ms).sort((a, b) => a - b);
  const pct = (q: number) =>
    times.length ? round(times[Math.min(times.length - 1, Math.floor(q * times.length))]) : 0;
  return {
    n,
    hit_at_1: mean((o) => (o.firstRelevant === 0 ? 1 : 0)),
    hit_at_3: mean((o) => (o.firstRelevant !== undefined && o.firstRelevant < 3 ? 1 : 0)),
    mrr: mean((o) => (o.firstRelevant === undefined ? 0 : 1 / (o.firstRelevant + 1))),
    ndcg_at_5: mean(ndcgAt5),
    recall_at_5: mean((o) => (o.relevantCount ? o.relevantRanks.filter((r) => r < 5).length / o.relevantCount : 0)),
    tiers,
    activated_precision: activated.length
      ? round(activated.filter((o) => o.activatedCorrect).length / activated.length)
      : null,
    answer_shows_relevant: mean((o) => (o.shown ? 1 : 0)),
    mean_shown: mean((o) => o.shownCount),
    p50_ms: pct(0.5),
    p95_ms: pct(0.95),
    ...answerFigures(outcomes),
  };
}

function answerFigures(
  outcomes: QueryOutcome[],
): Pick<
  BenchSummary,
  'one_trip' | 'answer_tokens_p50' | 'answer_tokens_p95' | 'answer_tiers' | 'answer_activated_precision'
> {
  const answered = outcomes.filter((o) => o.oneTrip !== undefined);
  if (answered.length === 0) return {};
  const tokens = answered.map((o) => o.answerTokens ?? 0).sort((a, b) => a - b);
  const middle = Math.floor(tokens.length / 2);
  const median = tokens.length % 2 ? tokens[middle] : (tokens[middle - 1] + tokens[middle]) / 2;
  const tiers = { activated: 0, multiple_matches: 0, weak_matches: 0, not_found: 0 };
  for (const o of answered) tiers[o.answerTier as keyof typeof tiers] += 1;
  const activated = answered.filter((o) => o.answerTier === 'activated');
  return {
    one_trip: round(answered.filter((o) => o.oneTrip).length / answered.length),
    answer_tokens_p50: median,
    answer_tokens_p95: tokens[Math.min(tokens.length - 1, Math.floor(0.95 * tokens.length))],
    answer_tiers: tiers,
    // An activation's answer is one trip exactly when the activated power has a right tool.
    answer_activated_precision: activated.length
      ? round(activated.filter((o) => o.oneTrip).length / activated.length)
      : null,
  };
}

function ndcgAt5(o: QueryOutcome): number {
  const dcg = o.relevantRanks.filter((r) => r < 5).reduce((s, r) => s + 1 / Math.log2(r + 2), 0);
  let ideal = 0;
  for (let i = 0; i < Math.min(5, o.relevantCount); i += 1) ideal += 1 / Math.log2(i + 2);
  return ideal ? dcg / ideal : 0;
}
