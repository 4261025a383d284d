import { decideTier } from '../resolve/tiers.js';
import type { PowerDocument, PowerScore, Resolver, TierThresholds } from '../resolve/types.js';
import { benchAnswer, type BenchCatalog } from './answer-bench.js';
import type { BenchQuery } from './dataset.js';
import { summarize, type BenchSummary, type QueryOutcome } from './metrics.js';

export interface BenchRun {
  resolver: Resolver;
  powers: PowerDocument[];
  queries: BenchQuery[];
  level: 'server' | 'tool';
  queryField: 'query' | 'task_description';
  thresholds: TierThresholds;
  /** The caller already indexed `powers` (and waited for their embeddings). */
  indexed?: boolean;
  /** At tool level: also build each query's resolve_intent answer over this catalog (one_trip, answer tokens). */
  catalog?: BenchCatalog;
}

/** Ranks every query and scores the ranking against its ground truth. */
export async function runBench(run: BenchRun): Promise<{ summary: BenchSummary; outcomes: QueryOutcome[] }> {
  if (!run.indexed) run.resolver.index(run.powers);
  const outcomes: QueryOutcome[] = [];
  for (const query of run.queries) {
    const text = run.queryField === 'task_description' ? (query.task_description ?? query.query) : query.query;
    const relevant = new Set(run.level === 'server' ? (query.gt_servers ?? []) : (query.gt_tool_ids ?? []));
    if (relevant.size === 0) throw new Error(`query ${query.qid} has no ground truth for level '${run.level}'`);
    const started = performance.now();
    const ranked = run.level === 'server' ? await run.resolver.rank(text) : await rankTools(run.resolver, text);
    const ms = performance.now() - started;
    const decision = decideTier(ranked, run.thresholds);
    const answered =
      run.level === 'tool' && run.catalog
        ? await answerOf(run.resolver, run.catalog, text, ranked, run.thresholds, relevant)
        : undefined;
    const relevantRanks = ranked.flatMap((r, index) => (relevant.has(r.name) ? [index] : []));
    outcomes.push({
      firstRelevant: relevantRanks[0],
      relevantRanks,
      relevantCount: relevant.size,
      tier: decision.tier,
      activatedCorrect: decision.tier === 'activated' && relevant.has(ranked[0].name),
      shown: decision.candidates.some((c) => relevant.has(c.name)),
      shownCount: decision.candidates.length,
      ms,
      ...(answered ? { oneTrip: answered.oneTrip, answerTokens: answered.tokens, answerTier: answered.tier } : {}),
    });
  }
  return { summary: summarize(outcomes), outcomes };
}

/**
 * The answer resolve_intent gives: the power ranking decides the tier (as Resolution does with no history),
 * the tool ranking names the tools.
 */
async function answerOf(
  resolver: Resolver,
  catalog: BenchCatalog,
  text: string,
  toolRanking: PowerScore[],
  thresholds: TierThresholds,
  relevant: Set<string>,
) {
  const decision = decideTier(await resolver.rank(text), thresholds);
  return benchAnswer(catalog, decision, toolRanking, relevant);
}

async function rankTools(resolver: Resolver, text: string) {
  if (!resolver.rankTools) throw new Error('this resolver does not rank tools');
  return resolver.rankTools(text);
}
