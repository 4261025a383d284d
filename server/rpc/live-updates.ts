/**
 * Pushes what the sidebar views and the dashboard show as it happens, from the gateway's emitters
 * (no polling): each call and rating at once; the hint network, the recommendation figures and the
 * token report debounced after calls, hints and tool list changes.
 */
import type { Gateway } from '../gateway/gateway.js';
import { errorMessage, logger } from '../log.js';
import { hintsPayload, RECENT_HINTS } from './hints-payloads.js';
import {
  activityRated,
  activityRecorded,
  hintsChanged,
  recommendationStatsChanged,
  tokenReportChanged,
  type ActivityInfo,
  type ActivityRated,
  type NotificationType,
} from './protocol.js';
import { gatewayRecommendationStats, gatewayTokenReport } from './insight-requests.js';

const log = logger('rpc');
export const HINTS_DEBOUNCE_MS = 250;
export const STATS_DEBOUNCE_MS = 1000;

export type Notify = <P>(type: NotificationType<P>, params: P) => void;

class Debounced {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly ms: number,
    private readonly run: () => void | Promise<void>,
  ) {}

  schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      Promise.resolve()
        .then(this.run)
        .catch((error) => log.debug(`live update failed: ${errorMessage(error)}`));
    }, this.ms);
  }

  cancel(): void {
    clearTimeout(this.timer);
  }
}

/** Subscribes to the gateway's emitters; returns the unsubscribe function. */
export function publishLiveUpdates(gateway: Gateway, notify: Notify): () => void {
  const hints = new Debounced(HINTS_DEBOUNCE_MS, () => notify(hintsChanged, hintsPayload(gateway, { scope: 'active', recent: RECENT_HINTS })));
  const stats = new Debounced(STATS_DEBOUNCE_MS, async () => {
    notify(recommendationStatsChanged, gatewayRecommendationStats(gateway));
    notify(tokenReportChanged, await gatewayTokenReport(gateway));
  });
  const onRecorded = (entry: ActivityInfo) => {
    notify(activityRecorded, entry);
    hints.schedule();
    stats.schedule();
  };
  const onRated = (rated: ActivityRated) => notify(activityRated, rated);
  const onHint = () => hints.schedule();
  const onTools = () => {
    hints.schedule();
    stats.schedule();
  };
  gateway.activity.on('recorded', onRecorded);
  gateway.activity.on('rated', onRated);
  gateway.hints.events.on('changed', onHint);
  gateway.on('toolsChanged', onTools);
  return () => {
    hints.cancel();
    stats.cancel();
    gateway.activity.off('recorded', onRecorded);
    gateway.activity.off('rated', onRated);
    gateway.hints.events.off('changed', onHint);
    gateway.off('toolsChanged', onTools);
  };
}
