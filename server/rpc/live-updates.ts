/**
 * Pushes what the sidebar views and the dashboard show as it happens, from the gateway's emitters
 * (no polling): each call and rating at once; the hint network, the recommendation figures and the
 * token report debounced after calls, hints, tool list changes and each power's listing (so the
 * configured powers' tools are counted before any call).
 */
import type { EventEmitter } from 'node:events';
import type { ActivityLog } from '../activity/activity-log.js';
import type { GatewayEvents } from '../gateway/ports.js';
import type { HintEvents } from '../hints/hint-events.js';
import { errorMessage, logger } from '../log.js';
import { hintsPayload, RECENT_HINTS, type HintsPorts } from './hints-payloads.js';
import { type ActivityInfo, type ActivityRated } from '../../protocol/records.js';
import {
  activityRated,
  activityRecorded,
  hintsChanged,
  recommendationStatsChanged,
  tokenReportChanged,
  type NotificationType,
} from '../../protocol/extension-methods.js';
import {
  gatewayRecommendationStats,
  gatewayTokenReport,
  type RankingPorts,
  type TokenReportPorts,
} from './insight-requests.js';

const log = logger('rpc');
export const HINTS_DEBOUNCE_MS = 250;
export const STATS_DEBOUNCE_MS = 1000;

export type Notify = <P>(type: NotificationType<P>, params: NoInfer<P>) => void;

/** The emitters listened to (calls, ratings, hints, the gateway's tool list) and what the pushed payloads read. */
export type LiveUpdatePorts = HintsPorts &
  RankingPorts &
  TokenReportPorts & {
    activity: Pick<ActivityLog, 'on' | 'off'>;
    hints: { events: Pick<HintEvents, 'on' | 'off'> };
    gatewayEvents: Pick<EventEmitter<GatewayEvents>, 'on' | 'off'>;
  };

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
export function publishLiveUpdates(ports: LiveUpdatePorts, notify: Notify): () => void {
  const hints = new Debounced(HINTS_DEBOUNCE_MS, async () =>
    notify(hintsChanged, await hintsPayload(ports, { scope: 'active', recent: RECENT_HINTS })),
  );
  const stats = new Debounced(STATS_DEBOUNCE_MS, async () => {
    notify(recommendationStatsChanged, await gatewayRecommendationStats(ports));
    notify(tokenReportChanged, await gatewayTokenReport(ports));
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
  ports.activity.on('recorded', onRecorded);
  ports.activity.on('rated', onRated);
  ports.hints.events.on('changed', onHint);
  const onListed = () => stats.schedule();
  ports.gatewayEvents.on('toolsChanged', onTools);
  ports.gatewayEvents.on('powerListed', onListed);
  return () => {
    hints.cancel();
    stats.cancel();
    ports.activity.off('recorded', onRecorded);
    ports.activity.off('rated', onRated);
    ports.hints.events.off('changed', onHint);
    ports.gatewayEvents.off('toolsChanged', onTools);
    ports.gatewayEvents.off('powerListed', onListed);
  };
}
