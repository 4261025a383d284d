/**
 * What a power's server may ask of the agent's client, through the gateway: sampling, elicitation
 * and roots (forwarded to the MCP session that made the call), progress of a call (passed back
 * with the agent's own token), and the server's notifications (logs, prompt and resource changes),
 * which the sessions pick up from this hub's events.
 */
import { EventEmitter } from 'node:events';
import { Client, ProtocolError, ProtocolErrorCode, type RequestOptions } from '@modelcontextprotocol/client';
import type {
  ClientCapabilities,
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  ListRootsResult,
  LoggingLevel,
  LoggingMessageNotification,
  Progress,
} from '@modelcontextprotocol/client';
import { errorMessage, logger } from '../log.js';
import { VERSION } from '../version.js';

const log = logger('client-features');

/** A power's server is probed with server/discover (2026-07-28) and falls back to initialize (2025). */
export const CHILD_VERSION_NEGOTIATION = { mode: 'auto' } as const;

/** The agent-facing side of one MCP session, as the hub needs it. */
export interface SessionPeer {
  id: string;
  capabilities(): ClientCapabilities | undefined;
  createMessage(params: CreateMessageRequest['params'], options: RequestOptions): Promise<CreateMessageResult>;
  elicit(params: ElicitRequest['params'], options: RequestOptions): Promise<ElicitResult>;
  listRoots(options: RequestOptions): Promise<ListRootsResult>;
}

/**
 * Who a request to a power's server is made for, handed along with the request: the session whose
 * call, prompt, resource read or completion it serves. A request made for no session (discovery,
 * a list refresh) has none.
 */
export interface CallScope {
  sessionId: string;
  /** Present when the agent asked for progress (its request carried a progressToken). */
  onprogress?: (progress: Progress) => void;
}

type HubEvents = {
  log: [power: string, params: LoggingMessageNotification['params']];
  promptsChanged: [power: string];
  resourcesChanged: [power: string];
  resourceUpdated: [power: string, uri: string];
  /** The power's server (re)started: what it listed before may differ. */
  connected: [power: string];
  /** A session with sampling, elicitation or roots connected: running servers may need a restart. */
  sessionAdded: [];
};

const LEVELS: LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
const MAX_LINKS = 2000;
const MAX_LINK_SESSIONS = 4096;

export class ClientFeatureHub extends EventEmitter<HubEvents> {
  constructor() {
    super();
    // Every MCP session listens: as many listeners as sessions is the design, not a leak.
    this.setMaxListeners(0);
  }

  private readonly sessions = new Map<string, SessionPeer>();
  private readonly levels = new Map<string, LoggingLevel>();
  /** Per power, the sessions with a request in flight, oldest first (one entry per request). */
  private readonly callers = new Map<string, string[]>();
  private readonly clients = new Map<string, Client>();
  private readonly declared = new Map<string, ClientCapabilities>();
  /**
   * Per session, the resource URIs its own results pointed at, and the powers that did: what its
   * resources/read may reach besides the lists.
   */
  private readonly links = new Map<string, Map<string, Set<string>>>();

  addSession(peer: SessionPeer): void {
    this.sessions.set(peer.id, peer);
    this.emit('sessionAdded');
  }

  removeSession(id: string): void {
    this.sessions.delete(id);
    this.levels.delete(id);
    this.links.delete(id);
    this.applyLogLevel();
  }

  /** What a power's server is told the gateway can do: what the connected agents' clients can. */
  childCapabilities(): ClientCapabilities {
    const capabilities: ClientCapabilities = {};
    for (const peer of this.sessions.values()) {
      const declared = peer.capabilities();
      if (declared?.sampling) capabilities.sampling ??= {};
      if (declared?.elicitation) capabilities.elicitation = { ...capabilities.elicitation, ...declared.elicitation };
      if (declared?.roots) capabilities.roots = { listChanged: true };
    }
    return capabilities;
  }

  /** A new MCP client for a power's server, answering its requests through the sessions. */
  createClient(power: string): Client {
    const capabilities = this.childCapabilities();
    const client = new Client(
      { name: 'grimoire-gateway', version: VERSION },
      { capabilities, versionNegotiation: CHILD_VERSION_NEGOTIATION },
    );
    this.declared.set(power, capabilities);
    if (capabilities.sampling) {
      client.setRequestHandler('sampling/createMessage', (request, ctx) =>
        this.peerFor(power, 'sampling').createMessage(withPowerMeta(request.params, power), {
          signal: ctx.mcpReq.signal,
        }),
      );
    }
    if (capabilities.elicitation) {
      client.setRequestHandler('elicitation/create', (request, ctx) =>
        this.peerFor(power, 'elicitation').elicit(
          { ...request.params, message: elicitationMessage(power, request.params.message) },
          { signal: ctx.mcpReq.signal },
        ),
      );
    }
    if (capabilities.roots) {
      client.setRequestHandler('roots/list', (_request, ctx) =>
        this.peerFor(power, 'roots').listRoots({ signal: ctx.mcpReq.signal }),
      );
    }
    client.setNotificationHandler(
      'notifications/message',
      async (notification) => void this.emit('log', power, notification.params),
    );
    client.setNotificationHandler(
      'notifications/prompts/list_changed',
      async () => void this.emit('promptsChanged', power),
    );
    client.setNotificationHandler(
      'notifications/resources/list_changed',
      async () => void this.emit('resourcesChanged', power),
    );
    client.setNotificationHandler(
      'notifications/resources/updated',
      async (n) => void this.emit('resourceUpdated', power, n.params.uri),
    );
    this.clients.set(power, client);
    return client;
  }

  /**
   * True when a session connected since the power's server started can do more than the server was
   * told (it started for discovery before any session, say): a restart lets the server offer it.
   */
  outdated(power: string): boolean {
    const declared = this.declared.get(power);
    if (!declared) return false;
    const now = this.childCapabilities();
    return (['sampling', 'elicitation', 'roots'] as const).some((feature) => now[feature] && !declared[feature]);
  }

  /** Called once the power's server answered initialize: applies the sessions' log level. */
  connected(power: string, client: Client): void {
    this.clients.set(power, client);
    this.applyLogLevel(power);
    this.emit('connected', power);
  }

  /**
   * Runs one request to a power's server for a scope: its session is the one the server's sampling
   * and elicitation requests go to while it runs. Without a scope the request is nobody's.
   */
  async track<T>(power: string, scope: CallScope | undefined, request: () => Promise<T>): Promise<T> {
    const session = scope?.sessionId;
    if (!session) return request();
    const list = this.callers.get(power) ?? [];
    list.push(session);
    this.callers.set(power, list);
    try {
      const result = await request();
      this.noteLinks(session, power, result);
      return result;
    } finally {
      const at = list.lastIndexOf(session);
      if (at >= 0) list.splice(at, 1);
      if (list.length === 0) this.callers.delete(power);
    }
  }

  /** Progress options for a request made for a scope (the SDK picks a fresh token for the child). */
  progressOptions(scope: CallScope | undefined): Pick<RequestOptions, 'onprogress' | 'resetTimeoutOnProgress'> {
    const onprogress = scope?.onprogress;
    return onprogress ? { onprogress, resetTimeoutOnProgress: true } : {};
  }

  /** The powers whose results made for this session linked to this URI (none for any other session's links). */
  linkedPowers(sessionId: string, uri: string): string[] {
    return [...(this.links.get(sessionId)?.get(uri) ?? [])];
  }

  sessionIsCalling(power: string, session: string): boolean {
    return this.callers.get(power)?.includes(session) ?? false;
  }

  /** A session chose a log level; the servers are asked for the lowest level any session wants. */
  setLogLevel(session: string, level: LoggingLevel): void {
    this.levels.set(session, level);
    this.applyLogLevel();
  }

  /** Whether a session wants a message of this level (every level until it set one). */
  wantsLog(session: string, level: LoggingLevel): boolean {
    const wanted = this.levels.get(session);
    return !wanted || LEVELS.indexOf(level) >= LEVELS.indexOf(wanted);
  }

  /** A session's roots changed: every running server that may have asked for them hears it. */
  rootsChanged(): void {
    for (const [power, client] of this.clients) {
      if (!client.transport) continue;
      client
        .sendRootsListChanged()
        .catch((error) => log.debug(`roots/list_changed not sent to '${power}': ${errorMessage(error)}`));
    }
  }

  private applyLogLevel(only?: string): void {
    if (this.levels.size === 0) return;
    const lowest = LEVELS[Math.min(...[...this.levels.values()].map((level) => LEVELS.indexOf(level)))];
    for (const [power, client] of this.clients) {
      if ((only && power !== only) || !client.transport || !client.getServerCapabilities()?.logging) continue;
      client
        .setLoggingLevel(lowest)
        .catch((error) => log.debug(`logging/setLevel not sent to '${power}': ${errorMessage(error)}`));
    }
  }

  /**
   * The session a power's server request (sampling, elicitation, roots) goes to: the one whose
   * request to that power is running. A server's request does not say which of ours it serves (the
   * SDK's relatedRequestId stays on the server's side of the wire), so when requests of several
   * sessions run at once it goes to none, and with none running (a server asking at start) it is refused.
   */
  private peerFor(power: string, feature: 'sampling' | 'elicitation' | 'roots'): SessionPeer {
    const calling = new Set(this.callers.get(power) ?? []);
    if (calling.size === 0) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        `'${power}' asked for ${feature} while no agent's request to it is running: ` +
          `the gateway forwards ${feature} only to the session whose call the server is serving.`,
      );
    }
    if (calling.size > 1) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        `'${power}' asked for ${feature} while requests of ${calling.size} sessions are running on it: ` +
          `the request does not say which it serves, so the gateway forwards it to none. ` +
          `Retry when one call runs alone.`,
      );
    }
    const peer = this.sessions.get([...calling][0]);
    if (!peer?.capabilities()?.[feature]) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        `The client of the session calling '${power}' does not support ${feature}.`,
      );
    }
    return peer;
  }

  private noteLinks(session: string, power: string, result: unknown): void {
    const content = (result as { content?: unknown })?.content;
    if (!Array.isArray(content)) return;
    for (const block of content as Array<{ type?: string; uri?: unknown; resource?: { uri?: unknown } }>) {
      const uri =
        block.type === 'resource_link' ? block.uri : block.type === 'resource' ? block.resource?.uri : undefined;
      if (typeof uri !== 'string') continue;
      let mine = this.links.get(session);
      if (!mine) {
        // A call that ends after its session closed leaves a map no one reads: keep them bounded.
        if (this.links.size >= MAX_LINK_SESSIONS) this.links.delete(this.links.keys().next().value as string);
        this.links.set(session, (mine = new Map()));
      }
      const powers = mine.get(uri) ?? new Set<string>();
      mine.delete(uri);
      mine.set(uri, powers.add(power));
      if (mine.size > MAX_LINKS) mine.delete(mine.keys().next().value as string);
    }
  }
}

/** The power's name travels in `_meta`: sampling has no field a client shows as the requester. */
function withPowerMeta(params: CreateMessageRequest['params'], power: string): CreateMessageRequest['params'] {
  return { ...params, _meta: { ...params._meta, 'grimoire/power': power } };
}

/**
 * The message the user sees, naming the power that asks. The child's own text cannot lead with
 * another label (`other-power: ...`, after blanks or invisible characters): such a text is quoted.
 */
export function elicitationMessage(power: string, message: string): string {
  const shown = message.replace(/^[\p{Z}\p{Cc}\p{Cf}\s]+/u, '');
  return LABEL.test(shown) || shown !== message ? `${power}: ${JSON.stringify(message)}` : `${power}: ${message}`;
}

/** A leading word (letters, digits, '.', '_', '-', in any script or case) and a colon (or a look-alike), as a power's name would read. */
const LABEL = /^[\p{L}\p{N}\p{M}._-]{1,80}\s*[:：︓﹕꞉∶]/u;
