/**
 * A modern HTTP user's session state on a store that spans machines (a team gateway's replicas on
 * one PostgreSQL, behind any proxy): which powers are active for the user, which guidance the
 * agent was already given and the hint context live in the store's `session_state` rows keyed by
 * the user's session ('modern:<user>'), so that whichever replica takes the next request tells the
 * agent the same.
 * Each request first adopts what other replicas changed since this one last synced (a three-way
 * merge: a change of this replica's own not yet written is kept); each call writes what it changed
 * before its answer leaves. A single-process gateway keeps the state in memory alone.
 */
import { errorMessage, logger } from '../../log.js';
import type { GatewayHints, GatewayPorts } from '../ports.js';

const log = logger('session');

type StatePorts = Pick<GatewayPorts, 'store' | 'sessions' | 'steering' | 'activate' | 'deactivate'> & {
  hints: Pick<GatewayHints, 'sessions'>;
};

/**
 * The part of a session's state that changes what the agent is told: the powers active, the
 * guidance given (steering keys), and the hint context (the tools completed, those a prerequisite
 * was suggested for). Only `active` loses items; the others only grow.
 */
export interface SharedSnapshot {
  active: Set<string>;
  shown: Set<string>;
  completed: Set<string>;
  suggested: Set<string>;
}

type Kind = keyof SharedSnapshot;
const KINDS: readonly Kind[] = ['active', 'shown', 'completed', 'suggested'];
const GROWING: readonly Exclude<Kind, 'active'>[] = ['shown', 'completed', 'suggested'];

/** Sessions whose last synced powers are remembered; a forgotten one is merged from nothing again (nothing deactivated). */
const MAX_SYNCED = 10_000;

export class SharedUserState {
  /** Per session, its active powers as last read from or written to the store. */
  private readonly synced = new Map<string, Set<string>>();

  constructor(private readonly ports: StatePorts) {}

  /** The session's state now, in this replica. */
  snapshot(sessionId: string): SharedSnapshot {
    const hints = this.ports.hints.sessions.get(sessionId);
    return {
      active: new Set(this.ports.sessions.state(sessionId).active),
      shown: new Set(this.ports.steering.givenTo(sessionId)),
      completed: new Set(hints.completedTools()),
      suggested: new Set(hints.suggestedTools()),
    };
  }

  /** The session was opened anew in this replica (first request, or after its idle close): everything stored is adopted. */
  opened(sessionId: string): void {
    this.synced.delete(sessionId);
  }

  /**
   * Brings this replica's state of the session up to the store's: powers activated or deactivated
   * elsewhere since this replica last synced (a change of its own not written yet is kept),
   * guidance given and hint context gathered elsewhere.
   */
  async adopt(sessionId: string): Promise<void> {
    const rows = await this.ports.store.read<{ kind: Kind; item: string }>(
      'SELECT kind, item FROM session_state WHERE session = ?',
      [sessionId],
    );
    const stored = empty();
    for (const row of rows) if (KINDS.includes(row.kind)) stored[row.kind].add(row.item);
    const last = this.synced.get(sessionId) ?? new Set<string>();
    this.remember(sessionId, stored.active);
    for (const key of stored.shown) this.ports.steering.markGiven(sessionId, key);
    this.ports.hints.sessions.get(sessionId).adopt(stored.completed, stored.suggested);
    const local = this.ports.sessions.state(sessionId).active;
    for (const name of stored.active) {
      if (last.has(name) || local.has(name)) continue;
      // A power that does not start here stays the user's: the next request tries again.
      await this.ports
        .activate(name, sessionId)
        .catch((error) => log.debug(`${name} not activated for ${sessionId} on this replica: ${errorMessage(error)}`));
    }
    for (const name of last) {
      if (stored.active.has(name) || !local.has(name)) continue;
      await this.ports
        .deactivate(name, sessionId)
        .catch((error) => log.debug(`${name} not deactivated for ${sessionId}: ${errorMessage(error)}`));
    }
  }

  /** Writes what changed in the session since `before` and waits until the store has it (committed, or queued while it is down). */
  async record(sessionId: string, before: SharedSnapshot): Promise<void> {
    const after = this.snapshot(sessionId);
    const at = Date.now();
    const activated = added(before.active, after.active);
    const deactivated = added(after.active, before.active);
    const ops = [
      ...activated.map((item) => upsert(sessionId, 'active', item, at)),
      ...deactivated.map((item) => ({
        op: 'delete' as const,
        table: 'session_state',
        where: { session: sessionId, kind: 'active', item },
      })),
      ...GROWING.flatMap((kind) => added(before[kind], after[kind]).map((item) => upsert(sessionId, kind, item, at))),
    ];
    if (!ops.length) return;
    const active = new Set(this.synced.get(sessionId));
    for (const name of deactivated) active.delete(name);
    for (const name of activated) active.add(name);
    this.remember(sessionId, active);
    this.ports.store.writeMany(ops);
    await this.ports.store.acknowledged?.();
  }

  private remember(sessionId: string, active: Set<string>): void {
    this.synced.delete(sessionId);
    this.synced.set(sessionId, active);
    if (this.synced.size > MAX_SYNCED) this.synced.delete(this.synced.keys().next().value!);
  }
}

const empty = (): SharedSnapshot => ({
  active: new Set(),
  shown: new Set(),
  completed: new Set(),
  suggested: new Set(),
});

function added(from: Set<string>, to: Set<string>): string[] {
  return [...to].filter((item) => !from.has(item));
}

function upsert(session: string, kind: Kind, item: string, at: number) {
  return { op: 'upsert' as const, table: 'session_state', row: { session, kind, item, at } };
}

const shared = new WeakMap<StatePorts, SharedUserState>();

/** The shared state of a gateway's modern HTTP users; undefined when its store is one process's (the state stays in memory). */
export function sharedUserStateOf(ports: StatePorts): SharedUserState | undefined {
  if (!ports.store.spansMachines) return undefined;
  let state = shared.get(ports);
  if (!state) shared.set(ports, (state = new SharedUserState(ports)));
  return state;
}
