/**
 * The standing part of each 2026-07-28 HTTP user, set up on the user's first request and kept
 * while the user is active: the gateway session whose state is the authorization's (active powers,
 * what was shown, the hint context, the token ledger), the user's entry in the powers' request hub
 * (a power's elicitation, sampling or roots question goes to the input bridge, answered by the
 * client's retry or tasks/update, even after the request that started the call has ended), and
 * what the user's requests declared they can do. A request's own Server only registers handlers on
 * it (modern-request-server.ts). A user takes a place under the session limits like any session;
 * the registry closes it when idle or to make room, and a later request opens it anew.
 */
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import { logger } from '../../log.js';
import type { Gateway } from '../gateway.js';
import { callTasksOf, type CallTasks } from './call-tasks.js';
import { inputBridgeOf, type InputBridge } from './input-bridge.js';
import { RETRY_WAIT_MS } from './mcp-session.js';
import { clientName } from './session-registry.js';
import { sharedUserStateOf, type SharedUserState } from './shared-user-state.js';

const log = logger('session');

/** The gateway session of a user's modern requests ('' is the owner's token). */
export const modernSessionId = (user: string) => `modern:${user}`;

/** One user's standing part, as a request's server uses it. */
export interface ModernUser {
  readonly id: string;
  /** '' for the owner's token, else the team user's name. */
  readonly user: string;
  readonly bridge: InputBridge;
  readonly tasks: CallTasks;
  /** Present when replicas share the user's state (shared-user-state.ts). */
  readonly shared?: SharedUserState;
  /** What the user's requests declared they can do, together. */
  capabilities(): ClientCapabilities;
  declare(capabilities: ClientCapabilities | undefined): void;
}

/** What a transport keeps for a user while it is open (its listen streams); closed with the user. */
export type AttachUser = (user: ModernUser) => () => Promise<void> | void;

interface Entry extends ModernUser {
  closed: boolean;
  detach?: () => Promise<void> | void;
}

export class ModernUsers {
  private readonly users = new Map<string, Entry>();
  private readonly opening = new Map<string, Promise<Entry>>();

  constructor(
    private readonly gateway: Gateway,
    private readonly attach: AttachUser,
  ) {}

  /** The user's standing part, opened on first use; throws SessionLimitError when no place can be made for it. */
  async enter(user: string): Promise<ModernUser> {
    const id = modernSessionId(user);
    const known = this.users.get(id);
    if (known) {
      this.gateway.ports.sessions.touch(id);
      return known;
    }
    let pending = this.opening.get(id);
    if (!pending) {
      pending = this.open(user).finally(() => this.opening.delete(id));
      this.opening.set(id, pending);
    }
    return pending;
  }

  async close(): Promise<void> {
    const all = [...this.users.values()];
    await Promise.allSettled(all.map((entry) => this.closeEntry(entry)));
  }

  private async open(user: string): Promise<Entry> {
    const { gateway } = this;
    const { ports } = gateway;
    const id = modernSessionId(user);
    // Fair sessions, as for a 2025 client's initialize: the user's session takes a place of the user's.
    for (const closed of await ports.sessions.makeRoom(user))
      log.info(`closed session ${closed} to make room for the modern requests of ${clientName(user)}`);
    // A call that ended after the user was closed may have left a state with nothing to close it: the user starts anew.
    if (ports.sessions.has(id)) gateway.closeSession(id);
    let declared: ClientCapabilities = {};
    const shared = sharedUserStateOf(ports);
    const entry: Entry = {
      id,
      user,
      bridge: inputBridgeOf(gateway, RETRY_WAIT_MS),
      tasks: callTasksOf(gateway, RETRY_WAIT_MS),
      ...(shared ? { shared } : {}),
      capabilities: () => declared,
      declare: (requested) => {
        if (requested) declared = { ...declared, ...requested };
      },
      closed: false,
    };
    // The user's session has no connection to tell: its list never changes, a message has nowhere to go.
    gateway.openSession(
      id,
      { toolsChanged: () => undefined, log: () => undefined, close: () => this.closeEntry(entry) },
      true,
      user,
    );
    entry.shared?.opened(id);
    if (user !== '') ports.activity.attributeSession(id, user);
    ports.manager.features.addSession({ id, capabilities: entry.capabilities, ...entry.bridge.peer(id) });
    entry.detach = this.attach(entry);
    this.users.set(id, entry);
    return entry;
  }

  /** The registry closed the user's session (idle, or to make room), or the gateway stops. */
  private async closeEntry(entry: Entry): Promise<void> {
    if (entry.closed) return;
    entry.closed = true;
    if (this.users.get(entry.id) === entry) this.users.delete(entry.id);
    this.gateway.closeSession(entry.id);
    this.gateway.ports.manager.features.removeSession(entry.id);
    // Nobody can reach the user's tasks any more: their calls are cancelled.
    entry.tasks.closeOwner(entry.id);
    await entry.detach?.();
  }
}
