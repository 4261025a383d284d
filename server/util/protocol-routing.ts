/**
 * The SDK's `Protocol.connect` (SDK 1.32) routes every message it receives through up to four
 * zod guards (`isJSONRPCResultResponse`, `isJSONRPCErrorResponse`, `isJSONRPCRequest`,
 * `isJSONRPCNotification`): a request pays two failing strict parses, each building a ZodError,
 * before the one that accepts it (8-17 µs per request in `npm run bench:wire`). `routeByShape`
 * replaces that router, once connected, with one that sorts by `jsonRpcKind` (the same verdicts,
 * test/unit/json-rpc-shape) and hands each message to the same Protocol method the SDK's router
 * would have called.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { jsonRpcKind, type JsonRpcKind } from './json-rpc-shape.js';

type MessageExtra = Parameters<NonNullable<Transport['onmessage']>>[1];

/** The Protocol methods the SDK's router calls (private in its types). */
interface Router {
  _onresponse(message: JSONRPCMessage): void;
  _onrequest(message: JSONRPCMessage, extra?: MessageExtra): void;
  _onnotification(message: JSONRPCMessage): void;
  _onerror(error: Error): void;
}

/** An SDK Server or Client (a Protocol). */
interface Connected {
  readonly transport?: Transport;
}

/**
 * Call after `protocol.connect(transport)` resolved, for a transport that had no `onmessage` of
 * its own before (the SDK's router calls that one first; this one does not). Returns false and
 * leaves the SDK's router in place when `protocol` is not connected to `transport` or lacks the
 * methods this was written against (another SDK version). `first`, when given, sees each message
 * before the Protocol and keeps the ones it returns true for (a lane of its own: tool-call-lane.ts).
 */
export function routeByShape(protocol: Connected, transport: Transport, first?: (message: JSONRPCMessage, kind: JsonRpcKind | undefined) => boolean): boolean {
  const router = protocol as unknown as Partial<Router>;
  if (protocol.transport !== transport) return false;
  if (!(['_onresponse', '_onrequest', '_onnotification', '_onerror'] as const).every((name) => typeof router[name] === 'function')) return false;
  const routes = router as Router;
  transport.onmessage = (message: JSONRPCMessage, extra?: MessageExtra) => {
    const kind = jsonRpcKind(message);
    if (first?.(message, kind)) return;
    if (kind === 'result' || kind === 'error') routes._onresponse(message);
    else if (kind === 'request') routes._onrequest(message, extra);
    else if (kind === 'notification') routes._onnotification(message);
    else routes._onerror(new Error('Unknown message type: not a JSON-RPC 2.0 request, notification or response'));
  };
  return true;
}
