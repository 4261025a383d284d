/**
 * What a power's server may ask of the agent's client, through the gateway: sampling, elicitation
 * and roots (forwarded to the MCP session that made the call), progress of a call (passed back
 * with the agent's own token), and the server's notifications (logs, prompt and resource changes),
 * which the sessions pick up from this hub's events.
 */
import { EventEmitter } from 'node:events';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
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
} from '@modelcontextprotocol/sdk/types.js';
import { errorMessage, logger } from '../log.js';
import { VERSION } from '../version.js';

const log = logger('client-features');

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
  private readonly lastCaller = new Map<string, string>();
  private readonly clients = new Map<string, Client>();
  private readonly declared = new Map<string, ClientCapabilities>();
  /** Resource URIs a power's tool results pointed at, so that resources/read finds their power. */
  private readonly links = new Map<string, string>();

  addSession(peer: SessionPeer): void {
    this.sessions.set(peer.id, peer);
    this.emit('sessionAdded');
  }

  removeSession(id: string): void {
    this.sessions.delete(id);
    this.levels.delete(id);
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
    const client = new Client({ name: 'grimoire-gateway', version: VERSION }, { capabilities });
    this.declared.set(power, capabilities);
    if (capabilities.sampling) {
      client.setRequestHandler(CreateMessageRequestSchema, (request, extra) =>
        this.peerFor(power, 'sampling', true).createMessage(withPowerMeta(request.params, power), { signal: extra.signal }),
      );
    }
    if (capabilities.elicitation) {
      client.setRequestHandler(ElicitRequestSchema, (request, extra) =>
        this.peerFor(power, 'elicitation', true).elicit({ ...request.params, message: `${power}: ${request.params.message}` }, { signal: extra.signal }),
      );
    }
    if (capabilities.roots) {
      client.setRequestHandler(ListRootsRequestSchema, (_request, extra) => this.peerFor(power, 'roots', false).listRoots({ signal: extra.signal }));
    }
    client.setNotificationHandler(LoggingMessageNotificationSchema, async (notification) => void this.emit('log', power, notification.params));
    client.setNotificationHandler(PromptListChangedNotificationSchema, async () => void this.emit('promptsChanged', power));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, async () => void this.emit('resourcesChanged', power));
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (n) => void this.emit('resourceUpdated', power, n.params.uri));
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
    this.lastCaller.set(power, session);
    try {
      const result = await request();
      this.noteLinks(power, result);
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

  /** The power whose tool result linked to this URI, if one did. */
  linkedPower(uri: string): string | undefined {
    return this.links.get(uri);
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
      client.sendRootsListChanged().catch((error) => log.debug(`roots/list_changed not sent to '${power}': ${errorMessage(error)}`));
    }
  }

  private applyLogLevel(only?: string): void {
    if (this.levels.size === 0) return;
    const lowest = LEVELS[Math.min(...[...this.levels.values()].map((level) => LEVELS.indexOf(level)))];
    for (const [power, client] of this.clients) {
      if ((only && power !== only) || !client.transport || !client.getServerCapabilities()?.logging) continue;
      client.setLoggingLevel(lowest).catch((error) => log.debug(`logging/setLevel not sent to '${power}': ${errorMessage(error)}`));
    }
  }

  /**
   * The session a power's server request goes to. Sampling and elicitation: only a session with
   * a request to that power in flight (the latest one when several are). Roots: that session, else
   * the last one that called the power, else any session that has roots.
   */
  private peerFor(power: string, feature: 'sampling' | 'elicitation' | 'roots', duringCallOnly: boolean): SessionPeer {
    const declares = (id: string | undefined) => {
      const peer = id ? this.sessions.get(id) : undefined;
      return peer?.capabilities()?.[feature] ? peer : undefined;
    };
    const calling = [...(this.callers.get(power) ?? [])].reverse();
    for (const id of calling) {
      const peer = declares(id);
      if (peer) return peer;
    }
    if (!duringCallOnly) {
      const peer = declares(this.lastCaller.get(power)) ?? [...this.sessions.keys()].map(declares).find(Boolean);
      if (peer) return peer;
    }
    throw new McpError(
      ErrorCode.InvalidRequest,
      duringCallOnly
        ? `The gateway forwards ${feature} requests only while an agent's call to '${power}' is running, from a client that supports ${feature}.`
        : `No client connected to the gateway supports ${feature}.`,
    );
  }

  private noteLinks(power: string, result: unknown): void {
    const content = (result as { content?: unknown })?.content;
    if (!Array.isArray(content)) return;
    for (const block of content as Array<{ type?: string; uri?: unknown; resource?: { uri?: unknown } }>) {
      const uri = block.type === 'resource_link' ? block.uri : block.type === 'resource' ? block.resource?.uri : undefined;
      if (typeof uri !== 'string') continue;
      this.links.delete(uri);
      this.links.set(uri, power);
      if (this.links.size > MAX_LINKS) this.links.delete(this.links.keys().next().value as string);
    }
  }
}

/** The power's name travels in `_meta`: sampling has no field a client shows as the requester. */
function withPowerMeta(params: CreateMessageRequest['params'], power: string): CreateMessageRequest['params'] {
  return { ...params, _meta: { ...params._meta, 'grimoire/power': power } };
}
