import { EventEmitter } from 'node:events';
import { Client, ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { CallToolResult, Tool } from '../util/mcp-types.js';
import type { PowerDefinition } from '../powers/types.js';
import { errorMessage, logger } from '../log.js';
import { RESULT_TOO_LARGE_CODE, megabytes, type TooLargeData } from './children/oversize-message.js';
import { CHILD_VERSION_NEGOTIATION, type CallScope, type ClientFeatureHub } from './client-features.js';
import type { ServerWords } from '../powers/server-words.js';
import { UpstreamError } from './errors.js';
import { RestartPolicy } from './restart-policy.js';
import { StderrTail } from './stderr-tail.js';
import { createTransport, type CreatedTransport } from './transport.js';
import { VERSION } from '../version.js';
import type { PowerState, PowerStateChange } from '../../protocol/records.js';
import type { Cancellation } from '../util/cancellation.js';
import { ToolCheckGate, type ToolCheck } from './tool-check-gate.js';

/** The power-state record is the protocol's (one declaration for server, extension and dashboard). */

export interface ConnectionOptions {
  callTimeoutMs: number;
  startTimeoutMs: number;
  restart: { maxAttempts: number; baseDelayMs: number };
  /** The largest message a stdio server may send; a larger answer fails that call only. */
  maxMessageBytes: number;
}

export interface CallOptions {
  timeoutMs?: number;
  cancellation?: Cancellation;
  /** The session the call is made for: it gets the server's sampling, elicitation and the call's progress. */
  scope?: CallScope;
}

export type ConnectionEvents = {
  /** The server started, stopped, crashed or is stopping. */
  state: [PowerStateChange];
  /** The server said its tool list changed. */
  toolsChanged: [];
};

/**
 * One power's MCP client and the life of its server: start, calls with timeouts, crash detection
 * with restarts on backoff (for calls too: a call never relaunches a failing server early), and a
 * stop that lets calls in flight finish first.
 * Emits ConnectionEvents.
 */
export class PowerConnection extends EventEmitter<ConnectionEvents> {
  private client?: Client;
  private starting?: Promise<void>;
  private currentState: PowerState = 'stopped';
  private inFlightCalls = 0;
  private drainWaiters: Array<() => void> = [];
  private readonly restarts: RestartPolicy;
  private restartTimer?: NodeJS.Timeout;
  private stableTimer?: NodeJS.Timeout;
  private closingOnPurpose = false;
  private restartingForFeatures?: Promise<void>;
  private stderr = new StderrTail();
  private exitOf: CreatedTransport['exit'] = () => undefined;
  private readonly log;
  /** Calls wait here after a start or a list_changed until the tools were compared with their pins. */
  private readonly gate = new ToolCheckGate();
  lastError?: string;
  lastUsedAt = 0;
  /** The protocol revision its server speaks, as negotiated at its last start (2026-07-28 by server/discover, else by initialize). */
  protocolVersion?: string;

  constructor(
    private definition: PowerDefinition,
    private readonly options: ConnectionOptions,
    private readonly features?: ClientFeatureHub,
    /** What checks the tools before calls reach them; none in tests of the connection alone. */
    private readonly toolCheck: () => ToolCheck | undefined = () => undefined,
    /** Why the definition may not start (its launch awaits the user's approval); none in tests of the connection alone. */
    private readonly launchRefusal: (power: PowerDefinition) => string | undefined = () => undefined,
  ) {
    super();
    this.log = logger(`power:${definition.name}`);
    this.restarts = new RestartPolicy(options.restart);
  }

  get name(): string {
    return this.definition.name;
  }

  get state(): PowerState {
    return this.currentState;
  }

  get inFlight(): number {
    return this.inFlightCalls;
  }

  get power(): PowerDefinition {
    return this.definition;
  }

  /** Takes a reloaded definition; a changed server spec restarts the server once its calls finish. */
  async updateDefinition(next: PowerDefinition): Promise<void> {
    const serverChanged = next.serverHash !== this.definition.serverHash;
    this.definition = next;
    // A fixed server spec gets a fresh round of attempts at once.
    if (serverChanged) this.restarts.recovered();
    if (serverChanged && this.currentState === 'active') {
      this.log.info('server configuration changed: restarting once calls in flight finish');
      await this.stop('configuration changed');
      await this.start();
    }
  }

  /** Starts the server, unless it is backing off after a failure (`scheduled`: the backoff's own timer). */
  async start(options: { scheduled?: boolean } = {}): Promise<void> {
    if (this.currentState === 'active') return;
    if (this.starting) return this.starting;
    if (this.definition.problems.length > 0) {
      throw new UpstreamError(
        'not_startable',
        this.name,
        `Power '${this.name}' cannot start: ${this.definition.problems.join('; ')}`,
      );
    }
    const refused = this.launchRefusal(this.definition);
    if (refused) throw new UpstreamError('awaiting_approval', this.name, refused);
    const gate = this.restarts.gate();
    if (!gate.open && !options.scheduled) {
      throw gate.gaveUp
        ? new UpstreamError(
            'gave_up',
            this.name,
            `Power '${this.name}' is down (${this.lastError ?? 'it failed'}) and Grimoire stopped restarting it ` +
              `after ${gate.attempts} attempts. ` +
              `Fix its server in ${this.definition.source.file}, then activate the power again.`,
          )
        : new UpstreamError(
            'backing_off',
            this.name,
            `Power '${this.name}' is down (${this.lastError ?? 'it failed'}). ` +
              `It can be started again in ${Math.ceil(gate.retryInMs / 1000)} s ` +
              `(attempt ${gate.attempt + 1} of ${gate.maxAttempts + 1}); call again after that.`,
          );
    }
    clearTimeout(this.restartTimer);
    this.starting = this.connect().finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async connect(): Promise<void> {
    this.setState('starting');
    this.stderr = new StderrTail();
    const { transport, stderr, exit } = createTransport(this.definition.server, {
      maxMessageBytes: this.options.maxMessageBytes,
    });
    this.exitOf = exit;
    this.stderr.attach(stderr, (line) => this.log.debug(`stderr: ${line}`));
    const client =
      this.features?.createClient(this.name) ??
      new Client({ name: 'grimoire-gateway', version: VERSION }, { versionNegotiation: CHILD_VERSION_NEGOTIATION });
    client.onclose = () => this.onClosed(client);
    client.onerror = (error) => this.log.debug(`transport error: ${errorMessage(error)}`);
    try {
      await client.connect(transport, { timeout: this.options.startTimeoutMs });
    } catch (error) {
      // Read before the close: its SIGTERM is the gateway's doing, not how the server failed.
      const timedOut = error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout && !this.exitOf();
      this.closingOnPurpose = true;
      await client.close().catch(() => undefined);
      this.closingOnPurpose = false;
      const why = timedOut ? this.timeoutReason() : (this.endReason() ?? errorMessage(error));
      this.lastError = `failed to start: ${why}`;
      this.setState('crashed', this.lastError);
      const retry = this.scheduleRestart();
      throw new UpstreamError(
        'start_failed',
        this.name,
        `Power '${this.name}' failed to start: ${why}. Check its server command in ${this.definition.source.file}. ${retry}`,
      );
    }
    client.setNotificationHandler('notifications/tools/list_changed', async () => {
      if (client === this.client) this.gate.changed();
      this.emit('toolsChanged');
    });
    // A new server: its tools are unchecked until listed and compared with their pins.
    this.gate.changed();
    this.client = client;
    this.protocolVersion = client.getNegotiatedProtocolVersion();
    this.features?.connected(this.name, client);
    this.lastError = undefined;
    this.lastUsedAt = Date.now();
    this.setState('active');
    clearTimeout(this.stableTimer);
    this.stableTimer = setTimeout(() => this.restarts.recovered(), 60_000);
    this.stableTimer.unref();
  }

  /** A server stopped at the initialize timeout: the timeout, and its last stderr line of this run, if any. */
  private timeoutReason(): string {
    const seconds = Math.round(this.options.startTimeoutMs / 100) / 10;
    const last = this.stderr.summary();
    return (
      `the server did not answer initialize within ${seconds} s, ` +
      `so Grimoire stopped it${last ? ` (its last stderr line: ${last})` : ''}`
    );
  }

  /** How the server ended: its exit and its last stderr line, as far as they are known. */
  private endReason(): string | undefined {
    const exit = this.exitOf();
    const how = exit
      ? `server exited (code ${exit.code ?? 'none'}${exit.signal ? `, signal ${exit.signal}` : ''})`
      : undefined;
    const last = this.stderr.summary();
    return how && last ? `${how}: ${last}` : (how ?? last);
  }

  private onClosed(client: Client): void {
    if (client !== this.client) return;
    this.client = undefined;
    clearTimeout(this.stableTimer);
    if (this.closingOnPurpose) return;
    const why = this.endReason() ?? 'the connection closed';
    this.lastError = `crashed: ${why}`;
    this.log.warn(`server ${this.lastError}`);
    this.setState('crashed', this.lastError);
    this.scheduleRestart();
  }

  /** Counts a crash or failed start against the backoff and schedules the next try; says when, for messages. */
  private scheduleRestart(): string {
    clearTimeout(this.restartTimer);
    const { maxAttempts } = this.options.restart;
    const delay = this.restarts.failed();
    if (delay === undefined) {
      this.log.error(`gave up after ${maxAttempts} restarts; activate the power again once its server is fixed`);
      this.emit('state', {
        power: this.name,
        state: 'crashed',
        detail: `${this.lastError}; gave up after ${maxAttempts} restarts`,
      });
      return `Grimoire stopped restarting it after ${maxAttempts} attempts: fix it, then activate the power again.`;
    }
    this.log.info(`restarting in ${delay} ms`);
    this.restartTimer = setTimeout(() => {
      // A failed start schedules the next try itself.
      this.start({ scheduled: true }).catch((error) => this.log.warn(`restart failed: ${errorMessage(error)}`));
    }, delay);
    this.restartTimer.unref();
    return `Grimoire tries again in ${Math.ceil(delay / 1000)} s.`;
  }

  /** Lets the user try again after the restarts gave up (an explicit activation does this); a backoff in progress stays. */
  resetRestarts(): void {
    this.restarts.liftGiveUp();
  }

  /**
   * What the server said of itself when it connected: its title and description (serverInfo) and
   * its instructions. Undefined while it is not connected.
   */
  serverWords(): ServerWords | undefined {
    const client = this.client;
    if (!client) return undefined;
    const info = client.getServerVersion();
    return { title: info?.title, description: info?.description, instructions: client.getInstructions() };
  }

  /**
   * `scope`: the session that asked (an activation), none for discovery and refreshes. `generation`:
   * the definitions the listing saw; once compared with the pins, `toolsChecked(generation)` lets calls through.
   */
  async listTools(scope?: CallScope): Promise<{ tools: Tool[]; generation: number }> {
    return this.request(async (client) => {
      const generation = this.gate.current;
      const tools: Tool[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: this.options.callTimeoutMs });
        // The gateway's records are typed by the v1 package's types (the same wire shape).
        tools.push(...(page.tools as Tool[]));
        cursor = page.nextCursor;
      } while (cursor);
      return { tools, generation };
    }, scope);
  }

  /** A listing of `generation` was compared with the pins: calls may reach those definitions. */
  toolsChecked(generation: number): void {
    this.gate.markChecked(generation);
  }

  async callTool(tool: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<CallToolResult> {
    const timeoutMs = options.timeoutMs ?? this.options.callTimeoutMs;
    try {
      return await this.request((client) => {
        const check = this.toolCheck();
        const send = () => {
          const refusal = check?.refusal(this.name, tool);
          if (refusal) throw new UpstreamError(refusal.code, this.name, refusal.message);
          const progress = this.features?.progressOptions(options.scope);
          const sent = { timeout: timeoutMs, signal: options.cancellation?.signal, ...progress };
          return client.callTool({ name: tool, arguments: args }, sent) as Promise<CallToolResult>;
        };
        if (!check || this.gate.open) return send();
        return this.gate.untilChecked(this.name, tool, check).then(() => {
          // The server restarted while its tools were checked: the call does not go to the old one.
          if (client !== this.client) throw new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');
          return send();
        });
      }, options.scope);
    } catch (error) {
      throw this.explainCallError(error, tool, timeoutMs);
    }
  }

  /**
   * One request to the server (a tool call, a prompt, a resource...). It counts as in flight from
   * the moment it arrives, so a stop (idle, discovery done) waits for it even while the server starts.
   * `scope`: the session it is made for (see ClientFeatureHub.track), none when it is nobody's.
   */
  async request<T>(send: (client: Client) => Promise<T>, scope?: CallScope): Promise<T> {
    if (this.inFlightCalls === 0) await this.restartIfOutdated();
    else if (this.restartingForFeatures) await this.restartingForFeatures;
    this.inFlightCalls += 1;
    this.lastUsedAt = Date.now();
    try {
      // A running server's client without an extra await: this runs on every call.
      const client = this.runningClient ?? (await this.ready());
      return await (this.features ? this.features.track(this.name, scope, () => send(client)) : send(client));
    } finally {
      this.inFlightCalls -= 1;
      this.lastUsedAt = Date.now();
      if (this.inFlightCalls === 0) {
        const stopWaiting = this.drainWaiters.length > 0;
        this.drainWaiters.splice(0).forEach((resolve) => resolve());
        if (!stopWaiting)
          this.restartIfOutdated().catch((error) => this.log.warn(`restart failed: ${errorMessage(error)}`));
      }
    }
  }

  /**
   * Restarts a server started before an agent's client that can sample, elicit or list roots
   * connected (discovery at start-up), once no request is in flight, and says its tools may have
   * changed: servers offer some tools only to clients that can. See ClientFeatureHub.outdated.
   */
  async restartIfOutdated(): Promise<void> {
    if (this.restartingForFeatures) return this.restartingForFeatures;
    if (this.currentState !== 'active' || this.inFlightCalls > 0 || !this.features?.outdated(this.name)) return;
    this.restartingForFeatures = (async () => {
      await this.stop("the agent's client supports more than the server was told");
      await this.start();
      this.emit('toolsChanged');
    })().finally(() => (this.restartingForFeatures = undefined));
    return this.restartingForFeatures;
  }

  private explainCallError(error: unknown, tool: string, timeoutMs: number): Error {
    if (error instanceof UpstreamError) return error;
    if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
      return new UpstreamError(
        'timeout',
        this.name,
        `Power '${this.name}' did not answer '${tool}' within ${Math.round(timeoutMs / 1000)} s, so the call was cancelled. ` +
          `The power keeps serving other calls. Retry with smaller input, or raise upstream.callTimeoutMs if the tool is just slow.`,
      );
    }
    if (
      error instanceof ProtocolError &&
      error.code === RESULT_TOO_LARGE_CODE &&
      (error.data as TooLargeData | undefined)?.reason === 'result_too_large'
    ) {
      const data = error.data as TooLargeData;
      return new UpstreamError(
        'result_too_large',
        this.name,
        `Power '${this.name}' answered '${tool}' with a result too large (${megabytes(data.bytes)}, ` +
          `limit ${megabytes(data.limitBytes)}). ` +
          `The power is still running and keeps its state. Ask for less (a filter, a smaller page), or raise upstream.maxResultMB.`,
      );
    }
    if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) {
      const why = this.lastError ?? 'the connection closed';
      return new UpstreamError(
        'crashed',
        this.name,
        `Power '${this.name}' ${why.startsWith('crashed') ? why : `crashed (${why})`} during the call to '${tool}'. ` +
          `Grimoire restarts it automatically; call again in a few seconds.`,
      );
    }
    if (error instanceof ProtocolError) return error;
    return new UpstreamError('call_failed', this.name, `Call to '${this.name}:${tool}' failed: ${errorMessage(error)}`);
  }

  /** The client of a server that is running; undefined while it is not. */
  private get runningClient(): Client | undefined {
    return this.currentState === 'active' ? this.client : undefined;
  }

  private async ready(): Promise<Client> {
    if (!this.runningClient) await this.start();
    if (!this.client)
      throw new UpstreamError('stopped', this.name, `Power '${this.name}' is not running; activate it first.`);
    return this.client;
  }

  /**
   * Stops the server once the calls in flight have finished (never in the middle of one), unless
   * `waitForCalls` is false: the gateway's own shutdown does not wait for a hanging call.
   */
  async stop(reason: string, waitForCalls = true): Promise<void> {
    clearTimeout(this.restartTimer);
    clearTimeout(this.stableTimer);
    if (this.starting) await this.starting.catch(() => undefined);
    if (this.inFlightCalls > 0 && waitForCalls) {
      this.log.info(`waiting for ${this.inFlightCalls} call(s) to finish before stopping (${reason})`);
      await new Promise<void>((resolve) => this.drainWaiters.push(resolve));
    }
    const client = this.client;
    if (!client) {
      if (this.currentState !== 'stopped') this.setState('stopped', reason);
      return;
    }
    this.setState('stopping', reason);
    this.closingOnPurpose = true;
    try {
      await client.close();
    } catch (error) {
      this.log.warn(`error while stopping: ${errorMessage(error)}`);
    } finally {
      this.closingOnPurpose = false;
      // A request that arrived while closing may already have started a new client: keep it.
      if (this.client === client || this.client === undefined) {
        this.client = undefined;
        this.setState('stopped', reason);
      }
    }
  }

  private setState(state: PowerState, detail?: string): void {
    this.currentState = state;
    const change: PowerStateChange = { power: this.name, state, detail };
    this.emit('state', change);
  }
}
