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

interface Row {
  session: string;
  power: string;
  tool: string;
  status: string;
  at: number;
}

/**
 * Which tool tends to follow which, across sessions, from the activity log; only calls that
 * reached a server count (not rejected ones, nor ones answered with a suggestion). Recomputed when the log changes.
 */
export class LearnedTransitions {
  private cache?: { version: number; transitions: Map<string, Transition[]> };

  constructor(
    private readonly store: Store,
    private readonly logVersion: () => number,
  ) {}

  /** Transitions from `tool` (`power:tool`) with at least `minSupport`, most supported first. */
  from(tool: string, minSupport: number): Transition[] {
    return (this.all().get(tool) ?? []).filter((t) => t.support >= minSupport);
  }

  all(): Map<string, Transition[]> {
    const version = this.logVersion();
    if (this.cache?.version === version) return this.cache.transitions;
    const rows = this.store.query<Row>("SELECT session, power, tool, status, at FROM activity WHERE status IN ('ok', 'error') ORDER BY session, at, id");
    const counts = new Map<string, { support: number; errors: number }>();
    for (let i = 1; i < rows.length; i += 1) {
      const previous = rows[i - 1];
      const current = rows[i];
      if (previous.session !== current.session || previous.status !== 'ok' || current.at - previous.at > GAP_MS) continue;
      const key = `${previous.power}:${previous.tool}\u0000${current.power}:${current.tool}`;
      const entry = counts.get(key) ?? { support: 0, errors: 0 };
      entry.support += 1;
      if (current.status !== 'ok') entry.errors += 1;
      counts.set(key, entry);
    }
    const transitions = new Map<string, Transition[]>();
    for (const [key, { support, errors }] of counts) {
      const [from, to] = key.split('\u0000');
      if (from === to) continue;
      const list = transitions.get(from) ?? [];
      list.push({ from, to, support, errorRate: errors / support });
      transitions.set(from, list);
    }
    for (const list of transitions.values()) list.sort((a, b) => b.support - a.support || a.to.localeCompare(b.to));
    this.cache = { version, transitions };
    return transitions;
  }
}
