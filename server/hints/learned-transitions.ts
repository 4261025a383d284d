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

interface Row {
  id: string;
  session: string;
  power: string;
  tool: string;
  status: string;
  at: number;
}

interface State {
  version: number;
  fullAt: number;
  /** Highest `at` read, and the ids read at exactly that time (the next read starts there). */
  watermark: number;
  atWatermark: Set<string>;
  /** Each session's latest call. */
  last: Map<string, Row>;
  counts: Map<string, { support: number; errors: number }>;
  transitions: Map<string, Transition[]>;
}

/**
 * Which tool tends to follow which, across sessions, from the activity log; only calls that
 * reached a server count (not rejected ones, nor ones answered with a suggestion). When the log
 * changes only the new rows are read (by the `at` index); the whole log every FULL_SCAN_MS.
 * `refreshSoon()` (after calls are recorded) does that read on the next turn of the event loop, off
 * the next answer's path, unless that answer asks first (then it reads, as without).
 */
export class LearnedTransitions {
  private state?: State;
  private refreshing = false;

  constructor(
    private readonly store: Store,
    private readonly logVersion: () => number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Transitions from `tool` (`power:tool`) with at least `minSupport`, most supported first. */
  from(tool: string, minSupport: number): Transition[] {
    return (this.all().get(tool) ?? []).filter((t) => t.support >= minSupport);
  }

  /** Reads what changed on the next turn of the event loop (once, however often it is asked). */
  refreshSoon(): void {
    if (this.refreshing) return;
    this.refreshing = true;
    setImmediate(() => {
      this.refreshing = false;
      try {
        this.all();
      } catch {
        // the next `from` reads again, on its answer's path, and reports what fails there
      }
    });
  }

  all(): Map<string, Transition[]> {
    const version = this.logVersion();
    const now = this.now();
    let state = this.state;
    if (state && state.version === version && now - state.fullAt < FULL_SCAN_MS) return state.transitions;
    if (!state || now - state.fullAt >= FULL_SCAN_MS) {
      state = { version, fullAt: now, watermark: -Infinity, atWatermark: new Set(), last: new Map(), counts: new Map(), transitions: new Map() };
      this.read(state, this.store.query<Row>("SELECT id, session, power, tool, status, at FROM activity WHERE status IN ('ok', 'error') ORDER BY session, at, id"));
    } else {
      const rows = this.store.query<Row>("SELECT id, session, power, tool, status, at FROM activity WHERE at >= ? AND status IN ('ok', 'error') ORDER BY at, id", [state.watermark]);
      this.read(state, rows.filter((row) => !state!.atWatermark.has(row.id)));
      state.version = version;
    }
    state.transitions = transitionsOf(state.counts);
    this.state = state;
    return state.transitions;
  }

  private read(state: State, rows: Row[]): void {
    for (const row of rows) {
      const previous = state.last.get(row.session);
      state.last.set(row.session, row);
      if (row.at > state.watermark) {
        state.watermark = row.at;
        state.atWatermark = new Set();
      }
      if (row.at === state.watermark) state.atWatermark.add(row.id);
      if (!previous || previous.status !== 'ok' || row.at - previous.at > GAP_MS) continue;
      const key = `${previous.power}:${previous.tool}\u0000${row.power}:${row.tool}`;
      const entry = state.counts.get(key) ?? { support: 0, errors: 0 };
      entry.support += 1;
      if (row.status !== 'ok') entry.errors += 1;
      state.counts.set(key, entry);
    }
  }
}

function transitionsOf(counts: Map<string, { support: number; errors: number }>): Map<string, Transition[]> {
  const transitions = new Map<string, Transition[]>();
  for (const [key, { support, errors }] of counts) {
    const [from, to] = key.split('\u0000');
    if (from === to) continue;
    const list = transitions.get(from) ?? [];
    list.push({ from, to, support, errorRate: errors / support });
    transitions.set(from, list);
  }
  for (const list of transitions.values()) list.sort((a, b) => b.support - a.support || a.to.localeCompare(b.to));
  return transitions;
}
