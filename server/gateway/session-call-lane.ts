/**
 * The agent's tools/call requests answered beside the session's SDK Server: a plain call (a name,
 * arguments that are an object, no task) goes to the same handler the Server would call, with
 * what that handler uses of the Server's `extra` (the abort signal, which `notifications/cancelled`
 * from the agent fires, and `sendNotification` for progress, sent as related to the request). The
 * answer and a thrown error become the same JSON-RPC response the Server's would be, and a
 * cancelled call is not answered. Anything else, a malformed call included, is left to the Server,
 * whose schema gives it its error.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolResultSchema, ErrorCode, McpError, RELATED_TASK_META_KEY } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolRequest, CallToolResult, JSONRPCMessage, RequestId, ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { Cancellation } from '../util/cancellation.js';
import type { JsonRpcKind } from '../util/json-rpc-shape.js';

/** What a tools/call handler gets besides the request (the part of the SDK's RequestHandlerExtra it uses). */
export interface CallExtra {
  signal: AbortSignal;
  /** The lane's calls: the same cancellation as `signal`, without making an AbortSignal. */
  cancellation?: Cancellation;
  requestId: RequestId;
  sendNotification(notification: ServerNotification): Promise<void>;
}

export type CallHandler = (request: CallToolRequest, extra: CallExtra) => Promise<CallToolResult>;

type Message = { id: RequestId; method?: string; params?: Record<string, unknown> };

export class SessionCallLane {
  private readonly running = new Map<RequestId, Cancellation>();

  constructor(
    private readonly transport: Transport,
    private readonly handler: CallHandler,
    private readonly onerror: (error: Error) => void,
  ) {}

  /** Takes a plain tools/call, or the cancellation of one the lane runs; false for any other message. */
  take(message: JSONRPCMessage, kind: JsonRpcKind | undefined): boolean {
    const m = message as Message;
    if (kind === 'request') {
      if (m.method !== 'tools/call' || !isPlainCall(m.params)) return false;
      this.run(m as unknown as CallToolRequest & { id: RequestId });
      return true;
    }
    if (kind === 'notification' && m.method === 'notifications/cancelled') {
      const params = m.params as { requestId?: RequestId; reason?: string } | undefined;
      const cancellation = params?.requestId === undefined ? undefined : this.running.get(params.requestId);
      if (!cancellation) return false;
      cancellation.abort(params!.reason);
      return true;
    }
    return false;
  }

  /** The session closed: calls still running are aborted and will not be answered. */
  close(): void {
    for (const cancellation of this.running.values()) cancellation.abort();
    this.running.clear();
  }

  private run(request: CallToolRequest & { id: RequestId }): void {
    const id = request.id;
    const cancellation = new Cancellation();
    this.running.set(id, cancellation);
    const extra: CallExtra = {
      get signal() {
        return cancellation.signal;
      },
      cancellation,
      requestId: id,
      sendNotification: async (notification) => {
        if (cancellation.aborted) return;
        await this.transport.send({ jsonrpc: '2.0', ...notification } as JSONRPCMessage, { relatedRequestId: id });
      },
    };
    let answered: Promise<CallToolResult>;
    try {
      answered = this.handler(request, extra);
    } catch (error) {
      answered = Promise.reject(error);
    }
    // One reaction per call instead of a chain of four promises.
    const respond = (message: JSONRPCMessage): void => {
      if (this.running.get(id) === cancellation) this.running.delete(id);
      if (cancellation.aborted) return;
      let sent: Promise<void>;
      try {
        sent = this.transport.send(message);
      } catch (error) {
        sent = Promise.reject(error);
      }
      sent.catch((error: unknown) => this.onerror(new Error(`Failed to send response: ${error}`)));
    };
    answered.then(
      (result) => {
        let message: JSONRPCMessage;
        try {
          message = { jsonrpc: '2.0', id, result: completed(result) } as JSONRPCMessage;
        } catch (error) {
          message = { jsonrpc: '2.0', id, error: errorObject(error) } as JSONRPCMessage;
        }
        respond(message);
      },
      (error) => respond({ jsonrpc: '2.0', id, error: errorObject(error) } as JSONRPCMessage),
    );
  }
}

/**
 * The handler's result as the Server would send it: one with a content list as it is (the
 * gateway builds its results from parsed ones), any other through the Server's schema, which
 * fills in an empty list or refuses it with the Server's error.
 */
function completed(result: CallToolResult): CallToolResult {
  if (Array.isArray(result?.content)) return result;
  const parsed = CallToolResultSchema.safeParse(result);
  if (!parsed.success) throw new McpError(ErrorCode.InvalidParams, `Invalid tools/call result: ${parsed.error.message}`);
  return parsed.data;
}

/** What the SDK's CallToolRequestSchema accepts, less tasks: a string name and, if any, object arguments. */
function isPlainCall(params: Record<string, unknown> | undefined): boolean {
  if (!params || typeof params.name !== 'string' || 'task' in params) return false;
  if ((params._meta as Record<string, unknown> | undefined)?.[RELATED_TASK_META_KEY] !== undefined) return false;
  const args = params.arguments;
  return args === undefined || (typeof args === 'object' && args !== null && !Array.isArray(args));
}

/** The JSON-RPC error the SDK's Protocol answers a thrown error with. */
function errorObject(error: unknown): { code: number; message: string; data?: unknown } {
  const e = (error ?? {}) as { code?: unknown; message?: unknown; data?: unknown };
  const answer: { code: number; message: string; data?: unknown } = {
    code: Number.isSafeInteger(e.code) ? (e.code as number) : ErrorCode.InternalError,
    message: typeof e.message === 'string' ? e.message : 'Internal error',
  };
  if (e.data !== undefined) answer.data = e.data;
  return answer;
}
