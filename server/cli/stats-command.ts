import { historyMetrics } from '../ranking/history-metrics.js';
import { RecommendationLog } from '../ranking/recommendations.js';
import { tuneWeights } from '../ranking/tune-weights.js';
import { currentWeights, saveWeights } from '../ranking/weights-store.js';
import { createRuntime, type RuntimeOptions } from '../runtime.js';
import type { CliArgs } from './args.js';

/**
 * `grimoire stats [--json] [--tune]`: how well recommendations served the agent (MRR and
 * precision@k of the candidate it used), call counts, the ranking weights, the tokens summaries and
 * lazy activation saved (`tokens`, server/intel); --tune refits the weights on that history and saves them.
 */
export async function stats(args: CliArgs, options: RuntimeOptions): Promise<number> {
  const runtime = await createRuntime({ ...options, demo: false, imports: false });
  try {
    const recommendations = new RecommendationLog(runtime.store);
    const history = recommendations.all();
    const calls = runtime.store.query<{ status: string; n: number }>('SELECT status, COUNT(*) AS n FROM activity GROUP BY status');
    const weights = currentWeights(runtime.store);
    const tuning = args.tune ? tuneWeights(history, weights) : undefined;
    if (tuning?.tuned) saveWeights(runtime.store, tuning);
    const report = {
      recommendations: {
        all: historyMetrics(history),
        resolve_intent: historyMetrics(history.filter((r) => r.source === 'resolve_intent')),
        retrieve_tools: historyMetrics(history.filter((r) => r.source === 'retrieve_tools')),
      },
      calls: Object.fromEntries(calls.map((row) => [row.status, row.n])),
      activity_rows: calls.reduce((sum, row) => sum + row.n, 0),
      weights: tuning?.tuned ? tuning.weights : weights,
      tokens: await runtime.gateway.intel.tokenReport(),
      ...(tuning ? { tuning: { tuned: tuning.tuned, samples: tuning.samples, mrr_before: round(tuning.mrrBefore), mrr_after: round(tuning.mrrAfter), ...(tuning.reason ? { reason: tuning.reason } : {}) } } : {}),
    };
    process.stdout.write(JSON.stringify(report, null, args.json ? 0 : 2) + '\n');
    return 0;
  } finally {
    await runtime.close();
  }
}

const round = (x: number) => Math.round(x * 1000) / 1000;
