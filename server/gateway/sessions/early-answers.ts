/**
 * A transport in front of the stdio transport while the gateway is being built: it answers
 * `initialize` (the same answer the session's Server gives: session-info.ts) and `tools/list`
 * (a new session has no active power, so its list is the gateway's own tools) at once, and holds
 * every other message. `start()`, called when the real session connects, hands it the held
 * messages in order, the `initialize` included so that it knows the client; its second answer to
 * that request is not sent. From then on messages pass straight through.
 */
import {
  isInitializeRequest,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  type InitializeResult,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type JSONRPCResultResponse,
  type RequestId,
  type Transport,
} from '@modelcontextprotocol/server';
import type { Tool } from '../../util/mcp-types.js';
import { logger } from '../../log.js';
import { jsonRpcKind } from '../../util/json-rpc-shape.js';
import { GATEWAY_INSTRUCTIONS, SERVER_INFO, SESSION_CAPABILITIES } from './session-info.js';

const log = logger('stdio');

/** What the session's Server answers to `initialize` (the protocol version it would pick, with our info). */
export function initializeResult(requestedVersion: string): InitializeResult {
  const protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(requestedVersion)
    ? requestedVersion
    : LATEST_PROTOCOL_VERSION;
  return {
    protocolVersion,
    capabilities: SESSION_CAPABILITIES,
    serverInfo: SERVER_INFO,
    instructions: GATEWAY_INSTRUCTIONS,
  };
}

export interface EarlyAnswersOptions {
  /** The tool list of a session with no active power. */
  tools: Tool[];
  /** Called once, when the gateway is needed: a tools/list was answered, or a message waits for it. */
  needed: () => void;
}

export class EarlyAnswersTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** tools/list requests answered here (the session's token accounting counts them once attached). */
  listsAnswered = 0;
  private readonly held: JSONRPCMessage[] = [];
  /** Requests answered here and handed on: the session's own answer to them is dropped. */
  private readonly answeredEarly = new Map<RequestId, InitializeResult>();
  private initialized = false;
  private attached = false;
  private closed = false;
  private neededOnce = false;

  constructor(
    private readonly inner: Transport,
    private readonly options: EarlyAnswersOptions,
  ) {}

  /** Starts reading the inner transport (before any session is attached). */
  async listen(): Promise<void> {
    this.inner.onmessage = (message) => (this.attached ? this.onmessage?.(message) : this.early(message));
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onclose = () => {
      this.closed = true;
      this.onclose?.();
    };
    await this.inner.start();
  }

  /** Called by the session's connect: replays what was held. */
  async start(): Promise<void> {
    this.attached = true;
    for (const message of this.held.splice(0)) this.onmessage?.(message);
  }

  send(message: JSONRPCMessage): Promise<void> {
    // Only while an early answer waits for its double (the first answers of a session) is a message looked at.
    const answer =
      this.answeredEarly.size > 0 && jsonRpcKind(message) === 'result' ? (message as JSONRPCResultResponse) : undefined;
    const sent = answer && this.answeredEarly.get(answer.id);
    if (answer && sent) {
      this.answeredEarly.delete(answer.id);
      if (JSON.stringify(sent) !== JSON.stringify(answer.result))
        log.warn("the early initialize answer differs from the session's; the early one stands");
      return Promise.resolve();
    }
    return this.inner.send(message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.inner.close();
  }

  private early(message: JSONRPCMessage): void {
    const request = jsonRpcKind(message) === 'request' ? (message as JSONRPCRequest) : undefined;
    if (request?.method === 'initialize' && !this.initialized) {
      if (isInitializeRequest(request)) {
        this.initialized = true;
        const result = initializeResult(request.params.protocolVersion);
        this.answeredEarly.set(request.id, result);
        this.held.push(request);
        void this.inner.send({ jsonrpc: '2.0', id: request.id, result });
        return;
      }
    }
    if (request?.method === 'tools/list' && this.initialized) {
      this.listsAnswered += 1;
      void this.inner
        .send({ jsonrpc: '2.0', id: request.id, result: { tools: this.options.tools } })
        .then(() => this.need());
      return;
    }
    this.held.push(message);
    if ((message as { method?: string }).method !== 'notifications/initialized') this.need();
  }

  private need(): void {
    if (this.neededOnce) return;
    this.neededOnce = true;
    this.options.needed();
  }
}
