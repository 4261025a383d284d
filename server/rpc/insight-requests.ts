/** The answers to the activity, ranking, hints and token requests, from the parts each one names. */
import type { ActivityLog } from '../activity/activity-log.js';
import type { Settings } from '../config/settings.js';
import type { Intel } from '../intel/intel.js';
import type { RecommendationLog } from '../ranking/recommendations.js';
import type { Store } from '../store/store.js';
import { metricsBySource } from '../ranking/history-metrics.js';
import { tuneWeights } from '../ranking/tune-weights.js';
import { currentWeights, saveWeights } from '../ranking/weights-store.js';
import { parseActivityFilterInfo, parseRating } from './activity-payloads.js';
import { hintsPayload, parseHintsParams, type HintsPorts } from './hints-payloads.js';
import type {
  ActivityPage,
  ActivityRated,
  HintsPayload,
  RecommendationStats,
  TokenReportInfo,
  TuneWeightsResult,
} from '../../protocol/records.js';
import { recommendationStats, tuneResult } from './ranking-payloads.js';

export interface ActivityPorts {
  activity: Pick<ActivityLog, 'query' | 'rate'>;
}

/** The recommendation log, the saved ranking weights (in the store) and whether ranking learns. */
export interface RankingPorts {
  recommendations: Pick<RecommendationLog, 'sums' | 'followed'>;
  store: Store;
  settings: Pick<Settings, 'ranking'>;
}

export interface TokenReportPorts {
  intel: Pick<Intel, 'tokenReport'>;
}

export type InsightPorts = ActivityPorts & RankingPorts & HintsPorts & TokenReportPorts;

export async function gatewayActivity(ports: ActivityPorts, params: unknown): Promise<ActivityPage> {
  const filter = parseActivityFilterInfo(params);
  return { filter, entries: await ports.activity.query(filter) };
}

export async function gatewayRate(ports: ActivityPorts, params: unknown): Promise<ActivityRated> {
  const p = (params && typeof params === 'object' ? params : {}) as { id?: unknown; rating?: unknown };
  if (typeof p.id !== 'string' || !p.id) throw new Error('Give the id of the call to rate.');
  const rating = parseRating(p.rating);
  await ports.activity.rate(p.id, rating);
  return { id: p.id, rating };
}

export async function gatewayRecommendationStats(ports: RankingPorts): Promise<RecommendationStats> {
  return recommendationStats(
    metricsBySource(await ports.recommendations.sums()),
    currentWeights(ports.store),
    ports.settings.ranking.learn,
  );
}

export async function gatewayTune(ports: RankingPorts): Promise<TuneWeightsResult> {
  const tuning = tuneWeights(await ports.recommendations.followed(), currentWeights(ports.store));
  if (tuning.tuned) saveWeights(ports.store, tuning);
  return tuneResult(tuning, await gatewayRecommendationStats(ports));
}

export function gatewayHints(ports: HintsPorts, params: unknown): Promise<HintsPayload> {
  return hintsPayload(ports, parseHintsParams(params));
}

export async function gatewayTokenReport(ports: TokenReportPorts): Promise<TokenReportInfo> {
  return ports.intel.tokenReport();
}
