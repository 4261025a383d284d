import { callsPerStatus } from '../activity/activity-table.js';
import { asTool, Catalog } from '../catalog/catalog.js';
import { configuredTools } from '../catalog/power-tools.js';
import { GATEWAY_TOOLS } from '../gateway/gateway-tools.js';
import { tokenReport } from '../intel/accounting/token-report.js';
import { ArtifactStore } from '../intel/artifacts/artifact-store.js';
import { InlineTokenizer } from '../intel/tokens/tokenizer.js';
import { metricsBySource } from '../ranking/history-metrics.js';
import { RecommendationLog } from '../ranking/recommendations.js';
import { tuneWeights } from '../ranking/tune-weights.js';
import { currentWeights, saveWeights } from '../ranking/weights-store.js';
import type { RuntimeOptions } from '../runtime.js';
import { loadRegistry, runtimeConfig } from '../runtime-parts.js';
import { ToolPolicy } from '../trust/tool-policy.js';
import { ToolTrust } from '../trust/tool-trust.js';
import type { CliArgs } from './args.js';
import { statsTable, type StatsReport } from './stats-table.js';
import { withStore } from './store-only.js';

/**
 * `grimoire stats [--json] [--tune]`: how well recommendations served the agent (MRR and
 * precision@k of the candidate it used), call counts, the ranking weights, the tokens summaries and
 * lazy activation saved (`tokens`, server/intel, counted per model request against the powers
 * configured now: request-model.ts); --tune refits the weights on that history and saves them.
 * Without --json, a table.
 */
export function stats(args: CliArgs, options: RuntimeOptions): Promise<number> {
  return withStore(options, args.tune ? 'writes' : 'reads', async (store) => {
    const config = runtimeConfig(options);
    const log = new RecommendationLog(store);
    const calls = await callsPerStatus(store);
    const weights = currentWeights(store);
    const tuning = args.tune ? tuneWeights(await log.followed(), weights) : undefined;
    if (tuning?.tuned) saveWeights(store, tuning);
    const artifacts = config.settings.intel.artifacts;
    const usage = await new ArtifactStore(store, () => artifacts).usage();
    // Direct exposure: the powers configured now (not disabled), with their tools as the catalog last saw them.
    const known = new Map([...new Catalog(store).all()].map(([power, tools]) => [power, tools.map(asTool)]));
    const policy = new ToolPolicy(() => config.settings, new ToolTrust(store));
    const powers = configuredTools(
      loadRegistry(options, config, 'debug')
        .snapshot()
        .powers.filter((power) => !policy.powerRefusal(power.name)),
      known,
    );
    const tokens = await tokenReport(
      store,
      new InlineTokenizer(),
      { gateway: GATEWAY_TOOLS, powers },
      { count: usage.count, bytes: usage.bytes, maxBytes: artifacts.maxBytes, ttlMinutes: artifacts.ttlMinutes },
    );
    const report: StatsReport = {
      recommendations: metricsBySource(await log.sums()),
      calls: Object.fromEntries(calls.map((row) => [row.status, row.n])),
      activityRows: calls.reduce((sum, row) => sum + row.n, 0),
      weights: tuning?.tuned ? tuning.weights : weights,
      tokens,
      ...(tuning
        ? {
            tuning: {
              tuned: tuning.tuned,
              samples: tuning.samples,
              mrrBefore: round(tuning.mrrBefore),
              mrrAfter: round(tuning.mrrAfter),
              ...(tuning.reason ? { reason: tuning.reason } : {}),
            },
          }
        : {}),
    };
    process.stdout.write(args.json ? JSON.stringify(report) + '\n' : statsTable(report));
    return 0;
  });
}

const round = (x: number) => Math.round(x * 1000) / 1000;
