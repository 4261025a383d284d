import type { RatedOutcome } from '../activity/activity-table.js';
import type { ActivityInfo, ActivityRated } from '../rpc/protocol.js';

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

/** What the usage factors read of the activity log: its rows, and its calls and ratings as they happen. */
export interface UsageSource {
  /** Bumps on every write of this process's log (calls, ratings, retention). */
  readonly version: number;
  ratedOutcomes(): RatedOutcome[];
  on(event: 'recorded', listener: (call: ActivityInfo) => void): unknown;
  on(event: 'rated', listener: (rated: ActivityRated) => void): unknown;
}

/**
 * The log is read again, whole, at most every RELOAD_MS while this process keeps writing to it
 * (a table at its 10,000-row cap takes ~20 ms to read); in between, this process's calls and
 * ratings are applied to the rows read as they are recorded. What only a re-read sees (another
 * process's calls, retention's deletes) shows within RELOAD_MS, or at the next minute.
 */
export const RELOAD_MS = 2_000;

/** Usage factors per power and per `power:tool`, kept up to date with this process's calls and ratings. */
export class UsageStats {
  private rows: Row[] | undefined;
  private readonly byId = new Map<string, Row>();
  /** The log's version, the time and the minute when the rows were read. */
  private read = { version: -1, at: 0, minute: -1 };
  private cache?: { minute: number; powers: Map<string, UsageFactors>; tools: Map<string, UsageFactors> };

  constructor(
    private readonly log: UsageSource,
    private readonly now: () => number = Date.now,
  ) {
    log.on('recorded', (call) => {
      if (!this.rows || (call.status !== 'ok' && call.status !== 'error')) return;
      this.add({ id: call.id, power: call.power, tool: call.tool, status: call.status, latency_ms: call.latencyMs, at: call.at, rating: null });
      this.cache = undefined;
    });
    log.on('rated', ({ id, rating }) => {
      const row = this.byId.get(id);
      if (!row) return;
      row.rating = rating === 0 ? null : rating;
      this.cache = undefined;
    });
  }

  forPowers(): Map<string, UsageFactors> {
    return this.compute().powers;
  }

  forTools(): Map<string, UsageFactors> {
    return this.compute().tools;
  }

  private compute() {
    const now = this.now();
    const minute = Math.floor(now / 60_000);
    const stale = this.log.version !== this.read.version && now - this.read.at >= RELOAD_MS;
    if (!this.rows || stale || minute !== this.read.minute) this.reload(now);
    if (this.cache?.minute === minute) return this.cache;
    const rows = this.rows!;
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
    this.cache = { minute, powers: group((r) => r.power), tools: group((r) => `${r.power}:${r.tool}`) };
    return this.cache;
  }

  private reload(now: number): void {
    const version = this.log.version;
    this.rows = [];
    this.byId.clear();
    for (const row of this.log.ratedOutcomes()) this.add(row);
    this.read = { version, at: now, minute: Math.floor(now / 60_000) };
    this.cache = undefined;
  }

  private add(row: Row): void {
    if (this.byId.has(row.id)) return;
    this.rows!.push(row);
    this.byId.set(row.id, row);
  }
}

export function factorsOf(rows: ReadonlyArray<Omit<Row, 'id'>>, now: number): UsageFactors {
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
