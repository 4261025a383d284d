/**
 * The messages between the dashboard webview (webview/) and the extension (client/dashboard.ts),
 * over postMessage. The gateway process never sees them.
 */
import type {
  ActivityFilterInfo,
  ActivityInfo,
  ActivityPage,
  ActivityRated,
  ActivityRating,
  GatewayStatus,
  HintsPayload,
  LoadIssueInfo,
  PowerInfo,
  RecommendationStats,
  ResolveResult,
  TokenReportInfo,
  TuneWeightsResult,
} from './records.js';

/** What the dashboard keeps across hide / reload / reopen. */
export interface DashboardState {
  query: string;
  result?: ResolveResult;
  activityFilter?: ActivityFilterInfo;
  hintsScope?: 'active' | 'all';
}

export type DashboardAction = 'resolve' | 'activate' | 'deactivate' | 'activity' | 'rate' | 'tune' | 'hints' | 'tokens';

export type DashboardRequest =
  | { type: 'ready' }
  | { type: 'resolve'; query: string }
  | { type: 'activate'; name: string }
  | { type: 'deactivate'; name: string }
  /** Show the calls matching this filter (and keep it). */
  | { type: 'activityFilter'; filter: ActivityFilterInfo }
  | { type: 'rate'; id: string; rating: ActivityRating }
  | { type: 'tune' }
  | { type: 'hintsScope'; scope: 'active' | 'all' };

export type DashboardUpdate =
  | {
      type: 'gateway';
      status: GatewayStatus;
      powers: PowerInfo[];
      /** The problems `status.issues` counts. */ issues?: LoadIssueInfo[];
    }
  | { type: 'restore'; state: DashboardState }
  | { type: 'resolved'; result: ResolveResult }
  | { type: 'activity'; page: ActivityPage }
  | { type: 'activityRecorded'; entry: ActivityInfo }
  | { type: 'activityRated'; rated: ActivityRated }
  | { type: 'recommendations'; stats: RecommendationStats }
  | { type: 'tuned'; result: TuneWeightsResult }
  | { type: 'hints'; payload: HintsPayload }
  | { type: 'tokens'; report: TokenReportInfo }
  | { type: 'failed'; action: DashboardAction; message: string };
