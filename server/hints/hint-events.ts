import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Store } from '../store/store.js';
import type { HintEventInfo, HintFollowRateInfo, HintOutcome } from '../../protocol/records.js';
import { Lru } from '../util/lru.js';

const MAX_PENDING_SESSIONS = 1_000;

/** A hint shown whose outcome waits for the session's next call. */
interface Pending extends Omit<HintEventInfo, 'session' | 'outcome'> {
  id: string;
  /** For error hints: the failed call, so a blind retry counts as ignoring the hint. */
  failedCall?: string;
}

export type FollowRate = HintFollowRateInfo;

/** A hint shown or resolved, as announced to live views. */
export type HintEventSummary = Omit<HintEventInfo, 'at'>;

/**
 * Every hint shown, and what the agent did next in that session: followed it (called a suggested
 * tool), ignored it, or proceeded past a prerequisite. Pending hints wait in memory for the
 * session's next call; each is stored when shown and again when resolved, and announced
 * ('changed') both times.
 */
export class HintEvents extends EventEmitter<{ changed: [HintEventSummary] }> {
  /** Hints waiting for their session's next call; a session that never calls again is dropped past MAX_PENDING_SESSIONS. */
  private readonly pending = new Lru<string, Pending[]>(MAX_PENDING_SESSIONS);

  constructor(private readonly store: Store) {
    super();
  }

  fired(session: string, entry: Omit<Pending, 'id' | 'at'>, at = Date.now()): void {
    const event: Pending = { id: randomUUID(), at, ...entry };
    this.write(session, event, null, null);
    const list = this.pending.get(session) ?? [];
    list.push(event);
    this.pending.set(session, list);
  }

  /**
   * The session's next call: `tool` as `power:tool`; `call` gives what identifies tool and arguments,
   * asked only when a pending error hint needs it.
   */
  resolve(session: string, tool: string, call: () => string, now = Date.now()): void {
    const list = this.pending.get(session);
    if (!list?.length) return;
    this.pending.delete(session);
    for (const event of list) this.write(session, event, outcomeOf(event, tool, call), now);
  }

  async followRates(): Promise<FollowRate[]> {
    const rows = await this.store.read<Omit<FollowRate, 'rate'>>(
      `SELECT power, tool, kind, hint, source, COUNT(*) AS shown,
              SUM(CASE WHEN outcome = 'followed' THEN 1 ELSE 0 END) AS followed,
              SUM(CASE WHEN outcome = 'ignored' THEN 1 ELSE 0 END) AS ignored,
              SUM(CASE WHEN outcome = 'proceeded' THEN 1 ELSE 0 END) AS proceeded
       FROM hint_events GROUP BY power, tool, kind, hint, source ORDER BY shown DESC`,
    );
    return rows.map((row) => {
      const resolved = row.followed + row.ignored + row.proceeded;
      return { ...row, rate: resolved ? Math.round((row.followed / resolved) * 1000) / 1000 : null };
    });
  }

  async recent(limit = 50): Promise<HintEventInfo[]> {
    return (
      await this.store.read<Omit<HintEventInfo, 'suggested'> & { suggested: string }>(
        'SELECT at, session, power, tool, kind, hint, source, suggested, outcome FROM hint_events ORDER BY at DESC, id LIMIT ?',
        [limit],
      )
    ).map((row) => ({ ...row, suggested: JSON.parse(row.suggested) as string[] }));
  }

  private write(session: string, event: Pending, outcome: HintOutcome | null, resolvedAt: number | null): void {
    this.store.write({
      op: 'upsert',
      table: 'hint_events',
      row: {
        id: event.id,
        at: event.at,
        session,
        power: event.power,
        tool: event.tool,
        kind: event.kind,
        hint: event.hint,
        source: event.source,
        suggested: JSON.stringify(event.suggested),
        outcome,
        resolved_at: resolvedAt,
      },
    });
    const { power, tool, kind, hint, source, suggested } = event;
    this.emit('changed', { session, power, tool, kind, hint, source, suggested, outcome });
  }
}

function outcomeOf(event: Pending, tool: string, call: () => string): HintOutcome {
  switch (event.kind) {
    case 'prerequisite':
      if (event.suggested.includes(tool)) return 'followed';
      return tool === `${event.power}:${event.tool}` ? 'proceeded' : 'ignored';
    case 'next_action':
      return event.suggested.includes(tool) ? 'followed' : 'ignored';
    case 'error_hint':
      return call() === event.failedCall ? 'ignored' : 'followed';
  }
}
