/**
 * The SDK's v2 line answers a resource that is not found with -32602 in every era (the
 * 2026-07-28 code); the 2025-11-25 revision a legacy session speaks gives it -32002. On a legacy
 * session, an error answer to a resources/read whose data names the URI gets its 2025 code back.
 */
import type { JSONRPCMessage, RequestId, Transport } from '@modelcontextprotocol/server';
import { RESOURCE_NOT_FOUND } from '../passthrough/resources-passthrough.js';

const INVALID_PARAMS = -32602;

/** Wraps a legacy session's transport before its server connects; returns what to call once connected. */
export function keepLegacyResourceCodes(transport: Transport): () => void {
  const reads = new Set<RequestId>();
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const error = 'error' in message && 'id' in message ? message : undefined;
    if (error && error.id !== undefined && reads.delete(error.id as RequestId)) {
      const data = error.error.data as { uri?: unknown } | undefined;
      if (error.error.code === INVALID_PARAMS && typeof data?.uri === 'string')
        return send({ ...error, error: { ...error.error, code: RESOURCE_NOT_FOUND } } as JSONRPCMessage, options);
    } else if ('result' in message && 'id' in message) reads.delete(message.id as RequestId);
    return send(message, options);
  };
  return () => {
    const receive = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if ('method' in message && message.method === 'resources/read' && 'id' in message)
        reads.add(message.id as RequestId);
      receive?.(message, extra);
    };
  };
}
