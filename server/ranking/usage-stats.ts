import type { RatedOutcome } from '../activity/activity-table.js';
import type { ActivityInfo, ActivityRated } from '../../protocol/records.js';
import { UsageGroup, type UsageFactors } from './usage-group.js';

type Row = RatedOutcome;

/** What the usage factors read of the activity log: its rows, and its calls and ratings as they happen. */
export interface UsageSource {
  /** Bumps on every write of this process's log (calls, ratings, retention). */
  readonly version: number;
  ratedOutcomes(): Promise<RatedOutcome[]>;
  on(event: 'recorded', listener: (call: ActivityInfo) => void): unknown;
  on(event: 'rated', listener: (rated: ActivityRated) => void): unknown;
}

/**
 * The log is read (with a query that can wait: the factors of the last read serve meanwhile) again, whole, at
 * most every RELOAD_MS while this process keeps writing to it (a table at its 10,000-row cap takes ~20 ms to
 * read); in between, this process's calls and ratings are applied to the rows read as they are recorded. What
 * only a re-read sees (another process's calls, retention's deletes) shows within RELOAD_MS, or at the next
 * minute.
 */
export const RELOAD_MS = 2_000;

/**
 * Calls applied to the rows read since the last read; past this many, they are forgotten and the
 * next use reads the log again (bounded by its retention). Without a use for hours (an agent that
 * resolved once and then only called tools) the rows would otherwise grow by every call.
 */
export const MAX_APPLIED = 10_000;

/** Usage factors per power and per `power:tool`, kept up to date with this process's calls and ratings. */
export class UsageStats {
  /** The calls read and recorded since, by id; undefined until the first read. */
  private rows: Map<string, Row> | undefined;
  private powers = new Map<string, UsageGroup>();
  private tools = new Map<string, UsageGroup>();
  /** The log's version, the time and the minute when the rows were read. */
  private read = { version: -1, at: 0, minute: -1 };
  private applied = 0;
  private cache?: { powers: Map<string, UsageFactors>; tools: Map<string, UsageFactors> };
  private reading: Promise<void> | undefined;
  /** This process's calls and ratings during a read, applied once it is in. */
  private whileReading: Array<() => void> | undefined;

  constructor(
    private readonly log: UsageSource,
    private readonly now: () => number = Date.now,
  ) {
    log.on('recorded', (call) =>
      this.whileReading ? this.whileReading.push(() => this.recorded(call)) : this.recorded(call),
    );
    log.on('rated', (rated) =>
      this.whileReading ? this.whileReading.push(() => this.rated(rated)) : this.rated(rated),
    );
  }

  private recorded(call: ActivityInfo): void {
    if (!this.rows || (call.status !== 'ok' && call.status !== 'error') || this.rows.has(call.id)) return;
    if (++this.applied > MAX_APPLIED) return this.forget();
    const row: Row = {
      id: call.id,
      power: call.power,
      tool: call.tool,
      status: call.status,
      latency_ms: call.latencyMs,
      at: call.at,
      rating: null,
    };
    this.rows.set(row.id, row);
    for (const group of this.groupsOf(row)) group.add(row);
    this.cache = undefined;
  }

  private rated({ id, rating }: ActivityRated): void {
    const row = this.rows?.get(id);
    if (!row) return;
    const before = row.rating;
    row.rating = rating === 0 ? null : rating;
    for (const group of this.groupsOf(row)) group.rate(before, row.rating);
    this.cache = undefined;
  }

  forPowers(): Map<string, UsageFactors> {
    return this.compute().powers;
  }

  forTools(): Map<string, UsageFactors> {
    return this.compute().tools;
  }

  private compute() {
    const now = this.now();
    const stale = this.log.version !== this.read.version && now - this.read.at >= RELOAD_MS;
    if (!this.rows || stale || Math.floor(now / 60_000) !== this.read.minute)
      void this.refresh().catch(() => undefined);
    this.cache ??= { powers: factorsBy(this.powers), tools: factorsBy(this.tools) };
    return this.cache;
  }

  /** Drops what was read and applied: the next use reads the log again. */
  private forget(): void {
    this.rows = undefined;
    this.powers = new Map();
    this.tools = new Map();
    this.cache = undefined;
  }

  /** Reads the log again (single flight); the factors served are those of the last read until it is in. */
  refresh(): Promise<void> {
    this.reading ??= this.reload().finally(() => {
      this.reading = undefined;
      this.whileReading = undefined;
    });
    return this.reading;
  }

  private async reload(): Promise<void> {
    this.whileReading = [];
    const version = this.log.version;
    const rows = await this.log.ratedOutcomes();
    const now = this.now();
    this.applied = 0;
    this.rows = new Map(rows.map((row) => [row.id, row]));
    this.powers = groupsBy(rows, powerKey, now);
    this.tools = groupsBy(rows, toolKey, now);
    this.read = { version, at: now, minute: Math.floor(now / 60_000) };
    this.cache = undefined;
    for (const replay of this.whileReading) replay();
  }

  /** The groups a call counts in, made (empty, as of the last read) when it is the first of its power or tool. */
  private groupsOf(row: Row): UsageGroup[] {
    const group = (groups: Map<string, UsageGroup>, key: string) => {
      let found = groups.get(key);
      if (!found) groups.set(key, (found = new UsageGroup(this.read.at)));
      return found;
    };
    return [group(this.powers, powerKey(row)), group(this.tools, toolKey(row))];
  }
}

const powerKey = (row: Row): string => row.power;
const toolKey = (row: Row): string => `${row.power}:${row.tool}`;

function groupsBy(rows: Row[], keyOf: (row: Row) => string, now: number): Map<string, UsageGroup> {
  const lists = new Map<string, Row[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const list = lists.get(key);
    if (list) list.push(row);
    else lists.set(key, [row]);
  }
  return new Map([...lists].map(([key, list]) => [key, UsageGroup.of(list, now)]));
}

function factorsBy(groups: Map<string, UsageGroup>): Map<string, UsageFactors> {
  return new Map([...groups].map(([key, group]) => [key, group.factors()]));
}
