/** The answers to the activity, ranking, hints and token requests, from the gateway's public API. */
import type { Gateway } from '../gateway/gateway.js';
import { tuneWeights } from '../ranking/tune-weights.js';
import { currentWeights, saveWeights } from '../ranking/weights-store.js';
import { parseActivityFilterInfo, parseRating } from './activity-payloads.js';
import { hintsPayload, parseHintsParams } from './hints-payloads.js';
import type { ActivityPage, ActivityRated, HintsPayload, RecommendationStats, TokenReportInfo, TuneWeightsResult } from './protocol.js';
import { recommendationStats, tuneResult } from './ranking-payloads.js';

export function gatewayActivity(gateway: Gateway, params: unknown): ActivityPage {
  const filter = parseActivityFilterInfo(params);
  return { filter, entries: gateway.activity.query(filter) };
}

export function gatewayRate(gateway: Gateway, params: unknown): ActivityRated {
  const p = (params && typeof params === 'object' ? params : {}) as { id?: unknown; rating?: unknown };
  if (typeof p.id !== 'string' || !p.id) throw new Error('Give the id of the call to rate.');
  const rating = parseRating(p.rating);
  gateway.activity.rate(p.id, rating);
  return { id: p.id, rating };
}

export function gatewayRecommendationStats(gateway: Gateway): RecommendationStats {
  return recommendationStats(gateway.recommendations.all(), currentWeights(gateway.store), gateway.settings.ranking.learn);
}

export function gatewayTune(gateway: Gateway): TuneWeightsResult {
  const tuning = tuneWeights(gateway.recommendations.all(), currentWeights(gateway.store));
  if (tuning.tuned) saveWeights(gateway.store, tuning);
  return tuneResult(tuning, gatewayRecommendationStats(gateway));
}

export function gatewayHints(gateway: Gateway, params: unknown): HintsPayload {
  return hintsPayload(gateway, parseHintsParams(params));
}

export async function gatewayTokenReport(gateway: Gateway): Promise<TokenReportInfo> {
  return gateway.intel.tokenReport();
}
