import { ratedOutcomes, type RatedOutcome } from '../activity/activity-table.js';
import type { Store } from '../store/store.js';

/** What the activity log says about a power or a tool, each factor in 0..1, 0.5 meaning "no idea". */
export interface UsageFactors {
  /** Share of calls that succeeded, Laplace-smoothed: 0.5 with no calls. */
  success: number;
  /** Recent use: calls weighted by a 30-day half-life, d / (d + 5). 0 with no calls. */
  popularity: number;
  /** Faster is better: 1 / (1 + median latency in seconds). 0.5 with no calls. */
  performance: number;
  /** Thumbs up and down, Laplace-smoothed: 0.5 with no ratings. */
  rating: number;
  calls: number;
}

export const NEUTRAL: UsageFactors = { success: 0.5, popularity: 0, performance: 0.5, rating: 0.5, calls: 0 };

const HALF_LIFE_MS = 30 * 24 * 3600 * 1000;
const POPULARITY_SCALE = 5;

type Row = RatedOutcome;

/** Usage factors per power and per `power:tool`, recomputed when the log or the minute changes. */
export class UsageStats {
  private cache?: { key: string; powers: Map<string, UsageFactors>; tools: Map<string, UsageFactors> };

  constructor(
    private readonly store: Store,
    private readonly logVersion: () => number,
    private readonly now: () => number = Date.now,
  ) {}

  forPowers(): Map<string, UsageFactors> {
    return this.compute().powers;
  }

  forTools(): Map<string, UsageFactors> {
    return this.compute().tools;
  }

  private compute() {
    const now = this.now();
    const key = `${this.logVersion()}:${Math.floor(now / 60_000)}`;
    if (this.cache?.key === key) return this.cache;
    const rows = ratedOutcomes(this.store);
    const group = (keyOf: (row: Row) => string) => {
      const groups = new Map<string, Row[]>();
      for (const row of rows) {
        const k = keyOf(row);
        const list = groups.get(k) ?? [];
        list.push(row);
        groups.set(k, list);
      }
      return new Map([...groups].map(([k, list]) => [k, factorsOf(list, now)]));
    };
    this.cache = { key, powers: group((r) => r.power), tools: group((r) => `${r.power}:${r.tool}`) };
    return this.cache;
  }
}

export function factorsOf(rows: Row[], now: number): UsageFactors {
  const ok = rows.filter((r) => r.status === 'ok').length;
  const decayed = rows.reduce((sum, r) => sum + 0.5 ** (Math.max(0, now - r.at) / HALF_LIFE_MS), 0);
  const latencies = rows.map((r) => r.latency_ms).sort((a, b) => a - b);
  const median = latencies[Math.floor(latencies.length / 2)] ?? 0;
  const up = rows.filter((r) => (r.rating ?? 0) > 0).length;
  const down = rows.filter((r) => (r.rating ?? 0) < 0).length;
  return {
    success: (ok + 1) / (rows.length + 2),
    popularity: decayed / (decayed + POPULARITY_SCALE),
    performance: rows.length ? 1 / (1 + median / 1000) : 0.5,
    rating: (up + 1) / (up + down + 2),
    calls: rows.length,
  };
}
