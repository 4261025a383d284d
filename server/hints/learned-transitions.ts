import { finishedCalls, finishedCallsSince, type FinishedCallRow } from '../activity/activity-table.js';
import type { Store } from '../store/store.js';

/** A transition the activity log shows: agents called `to` right after `from`, `support` times. */
export interface Transition {
  from: string;
  to: string;
  support: number;
  /** Share of those follow-up calls that failed. */
  errorRate: number;
}

/** Calls further apart than this are not one sequence. */
const GAP_MS = 15 * 60 * 1000;

/** Rows of the log are re-read in full this often (other processes' calls, pruning); new ones in between. */
const FULL_SCAN_MS = 60_000;

/** Observed calls kept for the next read; past this many, the next read scans the log instead. */
const MAX_OBSERVED = 1_000;

type Row = FinishedCallRow;

interface Count {
  support: number;
  errors: number;
}

interface State {
  version: number;
  fullAt: number;
  /** Highest `at` read, and the ids read at exactly that time (the next read starts there). */
  watermark: number;
  atWatermark: Set<string>;
  /** Each session's latest call. */
  last: Map<string, Row>;
  /** Follow-up counts by `from`, then `to` (both `power:tool`). */
  counts: Map<string, Map<string, Count>>;
  /** Ranked transitions by `from`; those of the `stale` tools are re-ranked when next asked for. */
  transitions: Map<string, Transition[]>;
  stale: Set<string>;
}

/**
 * Which tool tends to follow which, across sessions, from the activity log; only calls that
 * reached a server count (not rejected ones, nor ones answered with a suggestion). When the log
 * changes only the new rows are read (by the `at` index); the whole log every FULL_SCAN_MS.
 * The calls this process records are handed over with `observe`, so that the log is queried only
 * when something else changed it (retention) and for the full scans.
 */
export class LearnedTransitions {
  private state?: State;
  /** Calls recorded by this process since the last read, not yet counted. */
  private observed: Row[] = [];
  private reading: Promise<void> | undefined;

  constructor(
    private readonly store: Store,
    private readonly logVersion: () => number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Transitions from `tool` (`power:tool`) with at least `minSupport`, most supported first. */
  from(tool: string, minSupport: number): Transition[] {
    const state = this.current();
    if (state.stale.delete(tool)) rank(state, tool);
    return (state.transitions.get(tool) ?? []).filter((t) => t.support >= minSupport);
  }

  /**
   * A call this process just recorded (the activity log's 'recorded'): the next read takes it from
   * here instead of querying the store, in the order the query would return it.
   */
  observe(call: Row): void {
    if (call.status !== 'ok' && call.status !== 'error') return;
    if (this.observed.length >= MAX_OBSERVED) {
      // Nobody asked for a while (learning off, say): the next read scans the log instead.
      this.observed = [];
      this.state = undefined;
      return;
    }
    this.observed.push({
      id: call.id,
      session: call.session,
      power: call.power,
      tool: call.tool,
      status: call.status,
      at: call.at,
    });
  }

  all(): Map<string, Transition[]> {
    const state = this.current();
    for (const from of state.stale) rank(state, from);
    state.stale.clear();
    return state.transitions;
  }

  /**
   * The counts as of the last read, with the calls observed since; a read of the log is started
   * (not awaited: the log is read with a query that can wait) when something else changed it or a
   * full scan is due. Empty until the first read.
   */
  private current(): State {
    const state = this.state;
    const full = !state || this.now() - state.fullAt >= FULL_SCAN_MS;
    if (state && !this.reading && this.observed.length > 0) {
      this.readObserved(state);
      state.version = this.logVersion();
    }
    if (!state || full || state.version !== this.logVersion()) void this.refresh().catch(() => undefined);
    return this.state ?? emptyState(-1, -Infinity);
  }

  /**
   * Reads the log (single flight): the whole of it every FULL_SCAN_MS, else the rows at or after
   * the last one read. Calls observed meanwhile are counted after it, those it read excepted.
   */
  refresh(): Promise<void> {
    this.reading ??= this.readLog().finally(() => (this.reading = undefined));
    return this.reading;
  }

  private async readLog(): Promise<void> {
    const version = this.logVersion();
    const now = this.now();
    const state = this.state;
    this.observed = [];
    if (!state || now - state.fullAt >= FULL_SCAN_MS) {
      const fresh = emptyState(version, now);
      this.read(fresh, await finishedCalls(this.store));
      this.state = fresh;
    } else {
      const rows = await finishedCallsSince(this.store, state.watermark);
      this.read(
        state,
        rows.filter((row) => !state.atWatermark.has(row.id)),
      );
      state.version = version;
    }
  }

  /** The observed calls the incremental query would return (at or after the watermark, not yet read), in its order. */
  private readObserved(state: State): void {
    const rows = this.observed.filter(
      (row) => row.at > state.watermark || (row.at === state.watermark && !state.atWatermark.has(row.id)),
    );
    this.observed = [];
    rows.sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    this.read(state, rows);
  }

  /** Counts the rows' transitions; the `from` tools whose counts changed become stale. */
  private read(state: State, rows: Row[]): void {
    for (const row of rows) {
      const previous = state.last.get(row.session);
      state.last.set(row.session, row);
      if (row.at > state.watermark) {
        state.watermark = row.at;
        state.atWatermark.clear();
      }
      if (row.at === state.watermark) state.atWatermark.add(row.id);
      if (!previous || previous.status !== 'ok' || row.at - previous.at > GAP_MS) continue;
      const from = `${previous.power}:${previous.tool}`;
      const to = `${row.power}:${row.tool}`;
      if (from === to) continue;
      let targets = state.counts.get(from);
      if (!targets) state.counts.set(from, (targets = new Map()));
      let entry = targets.get(to);
      if (!entry) targets.set(to, (entry = { support: 0, errors: 0 }));
      entry.support += 1;
      if (row.status !== 'ok') entry.errors += 1;
      state.stale.add(from);
    }
  }
}

function emptyState(version: number, fullAt: number): State {
  return {
    version,
    fullAt,
    watermark: -Infinity,
    atWatermark: new Set(),
    last: new Map(),
    counts: new Map(),
    transitions: new Map(),
    stale: new Set(),
  };
}

/** Ranks the transitions from `from`, most supported first. */
function rank(state: State, from: string): void {
  const list: Transition[] = [];
  for (const [to, { support, errors }] of state.counts.get(from) ?? [])
    list.push({ from, to, support, errorRate: errors / support });
  list.sort((a, b) => b.support - a.support || a.to.localeCompare(b.to));
  state.transitions.set(from, list);
}
