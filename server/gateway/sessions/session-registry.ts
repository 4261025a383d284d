import type { ExposedTool } from '../exposure.js';

/** What the registry needs from an MCP session's connection. */
export interface SessionHandle {
  /** Sends notifications/tools/list_changed to this session's client. */
  toolsChanged(): void;
  /** Sends a logging message to this session's client. */
  log(message: string): void;
  /** Closes the connection (idle timeout); the transport's close then calls `close(id)`. */
  close(): Promise<void> | void;
}

export interface SessionState {
  id: string;
  /** Powers this session activated (or that the editor activated for the window). */
  active: Set<string>;
  /** The power tools in this session's list, by exposed name. */
  exposed: Map<string, ExposedTool>;
  lastSeen: number;
  /** HTTP sessions close after the idle timeout; stdio and internal ones do not. */
  expires: boolean;
  /** Whose session it is (HTTP): '' for the owner's token, else the team user's name. */
  client?: string;
  handle?: SessionHandle;
}

export class SessionLimitError extends Error {
  /** `yours`: the sessions the refused client holds itself (never anyone else's). */
  constructor(
    readonly max: number,
    yours?: number,
  ) {
    super(
      `Grimoire already serves ${max} MCP sessions, its limit for all clients together ` +
        `(sessions.maxConcurrent), and no client holds more than its share` +
        `${yours === undefined ? '' : ` (you hold ${yours})`}: close a session you no longer use, ` +
        `or wait for idle ones to be closed (sessions.idleMinutes), then connect again.`,
    );
  }
}

export interface SessionLimits {
  maxConcurrent: number;
  /**
   * Sessions one client (a bearer token: the owner's, or a team user's) holds at most; its least recently
   * used one makes room for a new one.
   */
  maxPerClient: number;
  idleMinutes: number;
}

/** A client's name in messages: '' is the owner's token. */
export const clientName = (client: string): string => (client === '' ? "the owner's token" : `user '${client}'`);

/**
 * Every MCP session's own state: its active powers and its tool list. The window (the editor's own
 * activations through JSON-RPC, and callers without a session) is a state of its own whose powers
 * also apply to every current session and are the starting set of new ones. One gateway-wide event
 * reaches only the sessions it concerns.
 */
export class SessionRegistry {
  readonly window: SessionState = {
    id: '',
    active: new Set(),
    exposed: new Map(),
    lastSeen: Date.now(),
    expires: false,
  };
  private readonly sessions = new Map<string, SessionState>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly limits: () => SessionLimits,
    private readonly now: () => number = Date.now,
  ) {
    const every = Math.min(30_000, Math.max(200, (limits().idleMinutes * 60_000) / 4));
    this.sweeper = setInterval(() => void this.closeIdle(), every);
    this.sweeper.unref();
  }

  /** Registers a session (it starts with the window's powers); throws SessionLimitError past the cap (`makeRoom` first). */
  open(id: string, handle: SessionHandle | undefined, expires: boolean, client?: string): SessionState {
    const existing = this.sessions.get(id);
    if (existing) return existing;
    if (expires) this.assertRoom();
    const state: SessionState = {
      id,
      active: new Set(this.window.active),
      exposed: new Map(),
      lastSeen: this.now(),
      expires,
      handle,
      ...(client !== undefined ? { client } : {}),
    };
    this.sessions.set(id, state);
    return state;
  }

  /** Throws SessionLimitError when no new expiring session may open. */
  assertRoom(): void {
    const max = this.limits().maxConcurrent;
    if (this.expiring().length >= max) throw new SessionLimitError(max);
  }

  /**
   * Makes room for a new session of `client` (fair sessions: no client can lock out another). A
   * client at its own limit (sessions.maxPerClient) gives up its least recently used session; when
   * every place is taken (sessions.maxConcurrent), the client holding the most sessions, if it holds
   * more than this one would, gives up its least recently used one. Otherwise throws
   * SessionLimitError. Returns the ids closed.
   */
  async makeRoom(client: string): Promise<string[]> {
    const { maxConcurrent, maxPerClient } = this.limits();
    const expiring = this.expiring();
    const mine = expiring.filter((s) => s.client === client);
    if (mine.length >= Math.min(maxPerClient, maxConcurrent))
      return this.evict(
        mine,
        `${clientName(client)} is at its limit of ${maxPerClient} sessions (sessions.maxPerClient)`,
      );
    if (expiring.length < maxConcurrent) return [];
    const byClient = new Map<string, SessionState[]>();
    for (const state of expiring)
      byClient.set(state.client ?? '', [...(byClient.get(state.client ?? '') ?? []), state]);
    const [largest, theirs] = [...byClient].sort((a, b) => b[1].length - a[1].length)[0]!;
    if (theirs.length > mine.length + 1)
      return this.evict(
        theirs,
        `the gateway is full (sessions.maxConcurrent) and ${clientName(largest)} holds the most sessions`,
      );
    throw new SessionLimitError(maxConcurrent, mine.length);
  }

  private expiring(): SessionState[] {
    return [...this.sessions.values()].filter((s) => s.expires);
  }

  /** Closes the least recently used of `candidates` to make room; says why in its client's log. */
  private async evict(candidates: SessionState[], why: string): Promise<string[]> {
    const oldest = candidates.reduce((a, b) => (b.lastSeen < a.lastSeen ? b : a));
    this.sessions.delete(oldest.id);
    oldest.handle?.log(
      `This MCP session is closed to make room for a newer one: ${why}. Initialize a new session to continue.`,
    );
    await Promise.resolve(oldest.handle?.close()).catch(() => undefined);
    return [oldest.id];
  }

  /** The session's state, the window's for no id; an unknown id (a CLI caller) gets a state that never expires. */
  state(id: string | undefined): SessionState {
    if (!id) return this.window;
    return this.sessions.get(id) ?? this.open(id, undefined, false);
  }

  has(id: string): boolean {
    return this.sessions.has(id);
  }

  touch(id: string): void {
    const state = this.sessions.get(id);
    if (state) state.lastSeen = this.now();
  }

  close(id: string): SessionState | undefined {
    const state = this.sessions.get(id);
    this.sessions.delete(id);
    return state;
  }

  /** The window first, then every session. */
  all(): SessionState[] {
    return [this.window, ...this.sessions.values()];
  }

  count(): number {
    return this.sessions.size;
  }

  /** How many states (the window included) have the power active: a child with none is left to the idle rule. */
  users(power: string): number {
    return this.all().filter((state) => state.active.has(power)).length;
  }

  /** Sends a logging message to every session that has one of the powers active. */
  tell(powers: Iterable<string>, message: string): void {
    const concerned = [...powers];
    for (const state of this.sessions.values())
      if (concerned.some((power) => state.active.has(power))) state.handle?.log(message);
  }

  /** Powers active anywhere. */
  activeAnywhere(): Set<string> {
    return new Set(this.all().flatMap((state) => [...state.active]));
  }

  /** Closes sessions idle past the timeout; returns their ids. */
  async closeIdle(): Promise<string[]> {
    const limit = this.limits().idleMinutes * 60_000;
    const idle = [...this.sessions.values()].filter((s) => s.expires && this.now() - s.lastSeen >= limit);
    for (const state of idle) {
      this.sessions.delete(state.id);
      await Promise.resolve(state.handle?.close()).catch(() => undefined);
    }
    return idle.map((s) => s.id);
  }

  dispose(): void {
    clearInterval(this.sweeper);
  }
}
