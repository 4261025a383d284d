/**
 * Which JSON-RPC 2.0 message a parsed line is, decided by the same rules as the SDK's
 * `JSONRPCMessageSchema` (types.ts: request, notification, result and error response) without
 * building a zod parse of it: the transports route every message through this, and each method's
 * own schema still validates it downstream (the SDK's Protocol handlers). test/unit/json-rpc-shape
 * holds the two to the same verdict over a generated set of messages.
 *
 * Unlike the schema's parse it returns the message itself, not a copy: unknown keys inside `error`
 * and `_meta`'s related-task object stay, and own `__proto__` keys of `params`, `result` and
 * `_meta` are not dropped (the method schemas downstream parse those objects again; deeper values
 * pass the SDK's schema uncopied anyway).
 */
import type { JSONRPCMessage } from './mcp-types.js';

export type JsonRpcKind = 'request' | 'notification' | 'result' | 'error';

type Message = Record<string, unknown>;

const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/** The kind of JSON-RPC message `value` is, or undefined when the SDK's schema would reject it. */
export function jsonRpcKind(value: unknown): JsonRpcKind | undefined {
  if (!isObject(value) || value.jsonrpc !== '2.0') return undefined;
  let id = false;
  let method = false;
  let params = false;
  let result = false;
  let error = false;
  // for...in, as zod's strict objects look for unknown keys (a key holding undefined counts).
  for (const key in value) {
    if (key === 'jsonrpc') continue;
    else if (key === 'id') id = true;
    else if (key === 'method') method = true;
    else if (key === 'params') params = true;
    else if (key === 'result') result = true;
    else if (key === 'error') error = true;
    else return undefined;
  }
  const message = value as Message;
  if (method || params) {
    if (result || error || typeof message.method !== 'string' || !optionalParams(message.params)) return undefined;
    if (!id) return 'notification';
    return isId(message.id) ? 'request' : undefined;
  }
  if (result) return !error && isId(message.id) && isResultObject(message.result) ? 'result' : undefined;
  return (!id || message.id === undefined || isId(message.id)) && isErrorObject(message.error) ? 'error' : undefined;
}

/** True when the SDK's `JSONRPCMessageSchema` accepts `value`. */
export function isJsonRpcMessage(value: unknown): value is JSONRPCMessage {
  return jsonRpcKind(value) !== undefined;
}

function isObject(value: unknown): value is Message {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** RequestIdSchema and ProgressTokenSchema: a string or a safe integer. */
function isId(value: unknown): boolean {
  return typeof value === 'string' || Number.isSafeInteger(value);
}

/** Request and notification params: absent or an object whose `_meta`, if any, is RequestMetaSchema. */
function optionalParams(params: unknown): boolean {
  return params === undefined || isResultObject(params);
}

/** ResultSchema (and the params schemas, the same shape): an object with an optional RequestMetaSchema `_meta`. */
function isResultObject(value: unknown): boolean {
  if (!isObject(value)) return false;
  const meta = value._meta;
  if (meta === undefined) return true;
  if (!isObject(meta)) return false;
  const token = meta.progressToken;
  if (token !== undefined && !isId(token)) return false;
  const task = meta[RELATED_TASK];
  return task === undefined || (isObject(task) && typeof task.taskId === 'string');
}

/** The error member: an integer code and a string message (other keys allowed). */
function isErrorObject(value: unknown): boolean {
  return isObject(value) && Number.isSafeInteger(value.code) && typeof value.message === 'string';
}
