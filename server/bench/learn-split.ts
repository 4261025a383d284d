import { randomUUID } from 'node:crypto';
import { LearnedRequests, withLearned } from '../ranking/learned-requests.js';
import { RecommendationLog } from '../ranking/recommendations.js';
import { NEUTRAL } from '../ranking/usage-group.js';
import type { PowerDocument, Resolver, TierThresholds } from '../resolve/types.js';
import type { Store } from '../store/store.js';
import type { BenchQuery } from './dataset.js';
import type { BenchSummary } from './metrics.js';
import { runBench } from './run-bench.js';

export interface LearnSplitRun {
  /** A fresh resolver for each phase. */
  resolver: () => Resolver;
  powers: PowerDocument[];
  queries: BenchQuery[];
  level: 'server' | 'tool';
  queryField: 'query' | 'task_description';
  thresholds: TierThresholds;
  /** Queries per power replayed as history before measuring. */
  n: number;
  /** A scratch store: the replay writes recommendations and learned requests into it. */
  store: Store;
}

/** Per power (a query's first ground-truth server), its first `n` queries are history and the rest are measured. */
export function splitByPower(queries: BenchQuery[], n: number): { history: BenchQuery[]; measured: BenchQuery[] } {
  const seen = new Map<string, number>();
  const history: BenchQuery[] = [];
  const measured: BenchQuery[] = [];
  for (const query of queries) {
    const power = query.gt_servers?.[0] ?? '';
    const count = seen.get(power) ?? 0;
    seen.set(power, count + 1);
    (count < n ? history : measured).push(query);
  }
  return { history, measured };
}

/**
 * `grimoire bench --learn-split N`: the held-back queries measured before and after the history
 * was replayed the way the gateway sees it: each history request resolved and recorded as an
 * answer, then a successful call to each of its right powers (and tools) recorded, which is what
 * the gateway learns from.
 */
export async function runLearnSplit(
  run: LearnSplitRun,
): Promise<{ before: BenchSummary; after: BenchSummary; history: number; learned: number }> {
  const { history, measured } = splitByPower(run.queries, run.n);
  const measure = async (powers: PowerDocument[]) =>
    (
      await runBench({
        resolver: run.resolver(),
        powers,
        queries: measured,
        level: run.level,
        queryField: run.queryField,
        thresholds: run.thresholds,
      })
    ).summary;
  const before = await measure(run.powers);
  const recommendations = new RecommendationLog(run.store);
  const learned = new LearnedRequests(run.store);
  const resolver = run.resolver();
  resolver.index(run.powers);
  const toolOfId = new Map(
    run.powers.flatMap((p) =>
      p.tools.map((t) => [t.id ?? `${p.name}:${t.name}`, { power: p.name, name: t.name }] as const),
    ),
  );
  // The request's right tool of that power, else the power's first tool.
  const toolOf = (query: BenchQuery, power: string) =>
    (query.gt_tool_ids ?? []).map((id) => toolOfId.get(id)).find((t) => t?.power === power)?.name ??
    run.powers.find((p) => p.name === power)?.tools[0]?.name ??
    power;
  let count = 0;
  let at = Date.now() - history.length * 1000;
  for (const query of history) {
    const powers = query.gt_servers ?? [];
    if (powers.length === 0) continue;
    const text = run.queryField === 'task_description' ? (query.task_description ?? query.query) : query.query;
    const session = randomUUID();
    const ranked = await resolver.rank(text);
    at += 1000;
    recommendations.record(
      {
        session,
        source: 'resolve_intent',
        query: text,
        candidates: ranked.slice(0, 5).map((c) => ({ name: c.name, relevance: c.confidence, factors: NEUTRAL })),
      },
      at,
    );
    // The agent uses each power the request needs, in turn: the first takes the answer, the next
    // ones learn from it only when the answer offered them too (as the gateway learns).
    for (const power of powers) {
      const tool = toolOf(query, power);
      at += 1;
      await recommendations.markUsed(session, power, at);
      if (await learned.learnFromCall({ session, power, tool, status: 'ok', at: at + 1 })) count += 1;
    }
  }
  const after = await measure(withLearned(run.powers, learned.documents()));
  return { before, after, history: history.length, learned: count };
}
