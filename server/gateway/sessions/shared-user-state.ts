/**
 * A modern HTTP user's session state on a store that spans machines (a team gateway's replicas on
 * one PostgreSQL, behind any proxy): which powers are active for the user and which guidance the
 * agent was already given live in the store's `session_state` rows keyed by the user's session
 * ('modern:<user>'), so that whichever replica takes the next request tells the agent the same.
 * Each request first adopts what other replicas changed since this one last synced (a three-way
 * merge: a change of this replica's own not yet written is kept); each call writes what it changed
 * before its answer leaves. A single-process gateway keeps the state in memory alone.
 */
import { errorMessage, logger } from '../../log.js';
import type { GatewayPorts } from '../ports.js';

const log = logger('session');

type StatePorts = Pick<GatewayPorts, 'store' | 'sessions' | 'steering' | 'activate' | 'deactivate'>;

/** The part of a session's state that changes what the agent is told. */
export interface SharedSnapshot {
  active: Set<string>;
  shown: Set<string>;
}

type Kind = 'active' | 'shown';

/** Sessions whose last synced state is remembered; a forgotten one is merged from nothing again (nothing removed). */
const MAX_SYNCED = 10_000;

export class SharedUserState {
  /** Per session, the state as last read from or written to the store. */
  private readonly synced = new Map<string, SharedSnapshot>();

  constructor(private readonly ports: StatePorts) {}

  /** The session's state now, in this replica. */
  snapshot(sessionId: string): SharedSnapshot {
    return { active: new Set(this.ports.sessions.state(sessionId).active), shown: new Set(this.ports.steering.givenTo(sessionId)) };
  }

  /** The session was opened anew in this replica (first request, or after its idle close): everything stored is adopted. */
  opened(sessionId: string): void {
    this.synced.delete(sessionId);
  }

  /** Brings this replica's state of the session up to the store's: powers activated or deactivated elsewhere, guidance given elsewhere. */
  async adopt(sessionId: string): Promise<void> {
    const rows = await this.ports.store.read<{ kind: Kind; item: string }>('SELECT kind, item FROM session_state WHERE session = ?', [sessionId]);
    const stored = empty();
    for (const row of rows) stored[row.kind]?.add(row.item);
    const last = this.synced.get(sessionId) ?? empty();
    this.remember(sessionId, stored);
    for (const key of stored.shown) this.ports.steering.markGiven(sessionId, key);
    const local = this.ports.sessions.state(sessionId).active;
    for (const name of stored.active) {
      if (last.active.has(name) || local.has(name)) continue;
      // A power that does not start here stays the user's: the next request tries again.
      await this.ports.activate(name, sessionId).catch((error) => log.debug(`${name} not activated for ${sessionId} on this replica: ${errorMessage(error)}`));
    }
    for (const name of last.active) {
      if (stored.active.has(name) || !local.has(name)) continue;
      await this.ports.deactivate(name, sessionId).catch((error) => log.debug(`${name} not deactivated for ${sessionId}: ${errorMessage(error)}`));
    }
  }

  /** Writes what changed in the session since `before` and waits until the store has it (committed, or queued while it is down). */
  async record(sessionId: string, before: SharedSnapshot): Promise<void> {
    const after = this.snapshot(sessionId);
    const at = Date.now();
    const ops = [
      ...added(before.active, after.active).map((item) => upsert(sessionId, 'active', item, at)),
      ...added(after.active, before.active).map((item) => ({ op: 'delete' as const, table: 'session_state', where: { session: sessionId, kind: 'active', item } })),
      ...added(before.shown, after.shown).map((item) => upsert(sessionId, 'shown', item, at)),
    ];
    if (!ops.length) return;
    const synced = this.synced.get(sessionId) ?? empty();
    const active = new Set(synced.active);
    for (const name of added(after.active, before.active)) active.delete(name);
    for (const name of added(before.active, after.active)) active.add(name);
    this.remember(sessionId, { active, shown: new Set([...synced.shown, ...after.shown]) });
    this.ports.store.writeMany(ops);
    await this.ports.store.acknowledged?.();
  }

  private remember(sessionId: string, state: SharedSnapshot): void {
    this.synced.delete(sessionId);
    this.synced.set(sessionId, state);
    if (this.synced.size > MAX_SYNCED) this.synced.delete(this.synced.keys().next().value!);
  }
}

const empty = (): SharedSnapshot => ({ active: new Set(), shown: new Set() });

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
