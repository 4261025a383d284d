import { EventEmitter } from 'node:events';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { PowerDefinition } from '../powers/types.js';
import { errorMessage, logger } from '../log.js';
import { backoffDelay } from './backoff.js';
import { UpstreamError } from './errors.js';
import { StderrTail } from './stderr-tail.js';
import { createTransport } from './transport.js';
import { VERSION } from '../version.js';

export type PowerState = 'stopped' | 'starting' | 'active' | 'crashed' | 'stopping';

export interface ConnectionOptions {
  callTimeoutMs: number;
  startTimeoutMs: number;
  restart: { maxAttempts: number; baseDelayMs: number };
}

export interface CallOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface StateChange {
  power: string;
  state: PowerState;
  detail?: string;
}

/**
 * One power's MCP client and the life of its server: start, calls with timeouts, crash detection
 * with restarts on backoff, and a stop that lets calls in flight finish first.
 * Emits 'state' (StateChange) and 'toolsChanged' (the server said its tool list changed).
 */
export class PowerConnection extends EventEmitter {
  private client?: Client;
  private starting?: Promise<void>;
  private currentState: PowerState = 'stopped';
  private inFlightCalls = 0;
  private drainWaiters: Array<() => void> = [];
  private restartAttempts = 0;
  private restartTimer?: NodeJS.Timeout;
  private stableTimer?: NodeJS.Timeout;
  private closingOnPurpose = false;
  private stderr = new StderrTail();
  private readonly log;
  lastError?: string;
  lastUsedAt = 0;

  constructor(
    private definition: PowerDefinition,
    private readonly options: ConnectionOptions,
  ) {
    super();
    this.log = logger(`power:${definition.name}`);
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
    if (serverChanged && this.currentState === 'active') {
      this.log.info('server configuration changed: restarting once calls in flight finish');
      await this.stop('configuration changed');
      await this.start();
    }
  }

  async start(): Promise<void> {
    if (this.currentState === 'active') return;
    if (this.starting) return this.starting;
    if (this.definition.problems.length > 0) {
      throw new UpstreamError('not_startable', this.name, `Power '${this.name}' cannot start: ${this.definition.problems.join('; ')}`);
    }
    clearTimeout(this.restartTimer);
    this.starting = this.connect().finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async connect(): Promise<void> {
    this.setState('starting');
    this.stderr = new StderrTail();
    const { transport, stderr } = createTransport(this.definition.server);
    this.stderr.attach(stderr, (line) => this.log.debug(`stderr: ${line}`));
    const client = new Client({ name: 'grimoire-gateway', version: VERSION });
    client.onclose = () => this.onClosed(client);
    client.onerror = (error) => this.log.debug(`transport error: ${errorMessage(error)}`);
    try {
      await client.connect(transport, { timeout: this.options.startTimeoutMs });
    } catch (error) {
      this.closingOnPurpose = true;
      await client.close().catch(() => undefined);
      this.closingOnPurpose = false;
      const why = this.stderr.summary() ?? errorMessage(error);
      this.lastError = `failed to start: ${why}`;
      this.setState('crashed', this.lastError);
      throw new UpstreamError(
        'start_failed',
        this.name,
        `Power '${this.name}' failed to start: ${why}. Check its server command in ${this.definition.source.file}.`,
      );
    }
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      this.emit('toolsChanged');
    });
    this.client = client;
    this.lastError = undefined;
    this.lastUsedAt = Date.now();
    this.setState('active');
    clearTimeout(this.stableTimer);
    this.stableTimer = setTimeout(() => (this.restartAttempts = 0), 60_000);
    this.stableTimer.unref();
  }

  private onClosed(client: Client): void {
    if (client !== this.client) return;
    this.client = undefined;
    clearTimeout(this.stableTimer);
    if (this.closingOnPurpose) return;
    const why = this.stderr.summary() ?? 'the connection closed';
    this.lastError = `crashed: ${why}`;
    this.log.warn(`server ${this.lastError}`);
    this.setState('crashed', this.lastError);
    this.scheduleRestart();
  }

  private scheduleRestart(): void {
    const { maxAttempts, baseDelayMs } = this.options.restart;
    if (this.restartAttempts >= maxAttempts) {
      this.log.error(`gave up after ${maxAttempts} restarts; activate the power again once its server is fixed`);
      this.emit('state', { power: this.name, state: 'crashed', detail: `${this.lastError}; gave up after ${maxAttempts} restarts` });
      return;
    }
    this.restartAttempts += 1;
    const delay = backoffDelay(this.restartAttempts, baseDelayMs);
    this.log.info(`restarting in ${delay} ms (attempt ${this.restartAttempts} of ${maxAttempts})`);
    this.restartTimer = setTimeout(() => {
      this.start().catch((error) => {
        this.log.warn(`restart failed: ${errorMessage(error)}`);
        this.scheduleRestart();
      });
    }, delay);
    this.restartTimer.unref();
  }

  /** Lets the user try again after the restarts gave up (an explicit activation does this). */
  resetRestarts(): void {
    this.restartAttempts = 0;
  }

  async listTools(): Promise<Tool[]> {
    const client = await this.ready();
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: this.options.callTimeoutMs });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  async callTool(tool: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<CallToolResult> {
    const client = await this.ready();
    const timeoutMs = options.timeoutMs ?? this.options.callTimeoutMs;
    this.inFlightCalls += 1;
    this.lastUsedAt = Date.now();
    try {
      return (await client.callTool({ name: tool, arguments: args }, undefined, {
        timeout: timeoutMs,
        signal: options.signal,
      })) as CallToolResult;
    } catch (error) {
      throw this.explainCallError(error, tool, timeoutMs);
    } finally {
      this.inFlightCalls -= 1;
      this.lastUsedAt = Date.now();
      if (this.inFlightCalls === 0) this.drainWaiters.splice(0).forEach((resolve) => resolve());
    }
  }

  private explainCallError(error: unknown, tool: string, timeoutMs: number): Error {
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return new UpstreamError(
        'timeout',
        this.name,
        `Power '${this.name}' did not answer '${tool}' within ${Math.round(timeoutMs / 1000)} s, so the call was cancelled. ` +
          `The power keeps serving other calls. Retry with smaller input, or raise upstream.callTimeoutMs if the tool is just slow.`,
      );
    }
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      const why = this.lastError ?? 'the connection closed';
      return new UpstreamError(
        'crashed',
        this.name,
        `Power '${this.name}' ${why.startsWith('crashed') ? why : `crashed (${why})`} during the call to '${tool}'. ` +
          `Grimoire restarts it automatically; call again in a few seconds.`,
      );
    }
    if (error instanceof McpError) return error;
    return new UpstreamError('call_failed', this.name, `Call to '${this.name}:${tool}' failed: ${errorMessage(error)}`);
  }

  private async ready(): Promise<Client> {
    if (this.currentState !== 'active' || !this.client) await this.start();
    if (!this.client) throw new UpstreamError('stopped', this.name, `Power '${this.name}' is not running; activate it first.`);
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
      this.client = undefined;
      this.setState('stopped', reason);
    }
  }

  private setState(state: PowerState, detail?: string): void {
    this.currentState = state;
    const change: StateChange = { power: this.name, state, detail };
    this.emit('state', change);
  }
}
