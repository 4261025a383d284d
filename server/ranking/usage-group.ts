import type { RatedOutcome } from '../activity/activity-table.js';

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

export type Outcome = Omit<RatedOutcome, 'id'>;

/**
 * One power's or tool's finished calls as running sums, with their latencies kept sorted: a call
 * or a rating changes them in place, and the factors are read off them. Popularity is decayed to
 * `now`, the time the group was built at.
 */
export class UsageGroup {
  private calls = 0;
  private ok = 0;
  private up = 0;
  private down = 0;
  private decayed = 0;
  private readonly latencies: number[] = [];

  constructor(private readonly now: number) {}

  /** A group of many calls at once (their latencies sorted once). */
  static of(rows: Iterable<Outcome>, now: number): UsageGroup {
    const group = new UsageGroup(now);
    for (const row of rows) group.count(row, false);
    group.latencies.sort((a, b) => a - b);
    return group;
  }

  add(row: Outcome): void {
    this.count(row, true);
  }

  /** A call's rating changed from `before` to `after` (null: none). */
  rate(before: number | null, after: number | null): void {
    if ((before ?? 0) > 0) this.up -= 1;
    else if ((before ?? 0) < 0) this.down -= 1;
    if ((after ?? 0) > 0) this.up += 1;
    else if ((after ?? 0) < 0) this.down += 1;
  }

  factors(): UsageFactors {
    const median = this.latencies[Math.floor(this.latencies.length / 2)] ?? 0;
    return {
      success: (this.ok + 1) / (this.calls + 2),
      popularity: this.decayed / (this.decayed + POPULARITY_SCALE),
      performance: this.calls ? 1 / (1 + median / 1000) : 0.5,
      rating: (this.up + 1) / (this.up + this.down + 2),
      calls: this.calls,
    };
  }

  private count(row: Outcome, keepSorted: boolean): void {
    this.calls += 1;
    if (row.status === 'ok') this.ok += 1;
    this.decayed += 0.5 ** (Math.max(0, this.now - row.at) / HALF_LIFE_MS);
    this.rate(null, row.rating);
    if (!keepSorted) this.latencies.push(row.latency_ms);
    else this.latencies.splice(sortedIndex(this.latencies, row.latency_ms), 0, row.latency_ms);
  }
}

/** The factors of a list of calls, as of `now`. */
export function factorsOf(rows: readonly Outcome[], now: number): UsageFactors {
  return UsageGroup.of(rows, now).factors();
}

/** Where `value` goes in an ascending list (after its equals). */
function sortedIndex(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! <= value) low = middle + 1;
    else high = middle;
  }
  return low;
}
