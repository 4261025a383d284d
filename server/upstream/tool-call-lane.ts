/**
 * A tools/call to a power's server sent straight down its transport, beside the SDK Client that
 * owns the connection: the request takes the next id of the Client's own counter (so the server
 * sees one sequence of ids) and the answer is picked off the transport before the Client's
 * router sees it. It keeps what the Client's `callTool` promises for a tool with no output schema
 * and no required task: the result parsed by `CallToolResultSchema` (a text-only one, which the
 * schema would return unchanged, taken as it is: `plainTextResult`), an error answer as an
 * McpError, the timeout (reset by progress when asked) and the call's cancellation each cancelling
 * the request on the server with `notifications/cancelled`, progress passed on, every waiting call
 * failed with ConnectionClosed when the connection closes. Tools with an output schema or a
 * required task go through the Client, which validates those.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolResultSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, JSONRPCMessage, Progress } from '@modelcontextprotocol/sdk/types.js';
import type { Cancellation } from '../util/cancellation.js';
import type { JsonRpcKind } from '../util/json-rpc-shape.js';
import { plainTextResult } from './plain-text-result.js';

/** The Client members the lane relies on (private in the SDK's types; checked at run time). */
interface ClientInternals {
  _requestMessageId: number;
  getToolOutputValidator(name: string): unknown;
  isToolTaskRequired(name: string): boolean;
}

export interface LaneCallOptions {
  timeout: number;
  cancellation?: Cancellation;
  onprogress?: (progress: Progress) => void;
  resetTimeoutOnProgress?: boolean;
}

interface Pending {
  resolve(result: CallToolResult): void;
  reject(error: unknown): void;
  onprogress?: (progress: Progress) => void;
  timer: NodeJS.Timeout;
  resetOnProgress: boolean;
  /** Stops listening to the call's cancellation. */
  unlisten?: () => void;
}

type Message = { id?: unknown; method?: string; result?: unknown; error?: { code: number; message: string; data?: unknown }; params?: { progressToken?: unknown } };

export class ToolCallLane {
  private readonly pending = new Map<number, Pending>();

  private constructor(
    private readonly client: ClientInternals,
    private readonly transport: Transport,
  ) {}

  /** A lane for a connected Client, or undefined when this SDK version lacks what the lane relies on. */
  static for(client: Client, transport: Transport): ToolCallLane | undefined {
    const internals = client as unknown as Partial<ClientInternals>;
    const fits = typeof internals._requestMessageId === 'number' && typeof internals.getToolOutputValidator === 'function' && typeof internals.isToolTaskRequired === 'function';
    return fits ? new ToolCallLane(internals as ClientInternals, transport) : undefined;
  }

  /** Whether the Client would check nothing more for this tool than the lane does. */
  serves(tool: string): boolean {
    return this.client.getToolOutputValidator(tool) === undefined && !this.client.isToolTaskRequired(tool);
  }

  call(name: string, args: Record<string, unknown>, options: LaneCallOptions): Promise<CallToolResult> {
    return new Promise<CallToolResult>((resolve, reject) => {
      const { cancellation } = options;
      if (cancellation?.aborted) return reject(cancellation.reason);
      const id = this.client._requestMessageId++;
      const params: Record<string, unknown> = { name, arguments: args };
      if (options.onprogress) params._meta = { progressToken: id };
      const timeoutMs = options.timeout;
      const entry: Pending = {
        resolve,
        reject,
        onprogress: options.onprogress,
        timer: setTimeout(() => this.cancel(id, McpError.fromError(ErrorCode.RequestTimeout, 'Request timed out', { timeout: timeoutMs })), timeoutMs),
        resetOnProgress: options.resetTimeoutOnProgress === true && options.onprogress !== undefined,
      };
      if (cancellation) entry.unlisten = cancellation.onAbort((reason) => this.cancel(id, reason));
      this.pending.set(id, entry);
      this.transport.send({ jsonrpc: '2.0', id, method: 'tools/call', params } as JSONRPCMessage).catch((error) => {
        if (this.settle(id)) reject(error);
      });
    });
  }

  /** Takes an answer to, or progress of, one of the lane's calls; false for any other message. */
  take(message: JSONRPCMessage, kind: JsonRpcKind | undefined): boolean {
    const m = message as Message;
    if (kind === 'notification') {
      if (m.method !== 'notifications/progress') return false;
      const entry = this.pending.get(asId(m.params?.progressToken));
      if (!entry?.onprogress) return false;
      if (entry.resetOnProgress) entry.timer.refresh();
      const { progressToken: _token, ...progress } = m.params as Progress & { progressToken: unknown };
      entry.onprogress(progress);
      return true;
    }
    if (kind !== 'result' && kind !== 'error') return false;
    const entry = this.settle(asId(m.id));
    if (!entry) return false;
    if (kind === 'error') {
      entry.reject(McpError.fromError(m.error!.code, m.error!.message, m.error!.data));
      return true;
    }
    const plain = plainTextResult(m.result);
    if (plain) {
      entry.resolve(plain);
      return true;
    }
    const parsed = CallToolResultSchema.safeParse(m.result);
    if (parsed.success) entry.resolve(parsed.data);
    else entry.reject(parsed.error);
    return true;
  }

  /** The connection closed: every waiting call fails as the Client's own requests do. */
  close(): void {
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'));
  }

  /** Stops waiting for a call: tells the server, and fails the call with `reason` (an McpError as the Client would). */
  private cancel(id: number, reason: unknown): void {
    const entry = this.settle(id);
    if (!entry) return;
    this.transport
      .send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: String(reason) } } as JSONRPCMessage)
      .catch(() => undefined);
    entry.reject(reason instanceof McpError ? reason : new McpError(ErrorCode.RequestTimeout, String(reason)));
  }

  /** Removes a waiting call and its timer and abort listener; undefined when it was not waiting. */
  private settle(id: number): Pending | undefined {
    const entry = this.pending.get(id);
    if (!entry) return undefined;
    this.pending.delete(id);
    clearTimeout(entry.timer);
    entry.unlisten?.();
    return entry;
  }
}

/** The number a response id or progress token stands for, read as the SDK's Protocol reads it (`Number`, so "5" is 5); NaN for anything else. */
function asId(value: unknown): number {
  return typeof value === 'number' || typeof value === 'string' ? Number(value) : Number.NaN;
}
