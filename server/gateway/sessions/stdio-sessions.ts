/**
 * The gateway's MCP session over stdio, in the era the client opens it with: the SDK's stdio entry
 * answers `server/discover` and a 2026-07-28 request on a modern session, `initialize` on a legacy
 * one (a modern probe followed by `initialize` falls back), and refuses an unknown revision with
 * -32022 and the supported list. One session id, 'stdio', whichever era.
 *
 * A connection that opens with a plain `initialize` is one the stdio entry would pin to 2025 at
 * once and then only pass through: its session Server reads the connection itself, without the
 * entry's routing (a queue and a classification of every message both ways, about 5 µs a call).
 */
import {
  isJSONRPCRequest,
  PROTOCOL_VERSION_META_KEY,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/server';
import { serveStdio, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import { errorMessage, logger } from '../../log.js';
import type { Gateway } from '../gateway.js';
import { createMcpSession, maskErrorAnswers } from './mcp-session.js';
import { OpeningTransport } from './opening-transport.js';

const log = logger('stdio');

export function serveStdioSessions(gateway: Gateway, transport: Transport): StdioServerHandle {
  maskErrorAnswers(transport);
  const onerror = (error: Error) => log.debug(`stdio session: ${errorMessage(error)}`);
  let served: Promise<StdioServerHandle> | undefined;
  const opening = new OpeningTransport(transport, (first) => {
    if (!opensLegacy(first)) {
      const handle = serveStdio(({ era }) => createMcpSession(gateway, 'stdio', false, undefined, era).server, {
        transport: opening,
        onerror,
      });
      opening.release();
      served = Promise.resolve(handle);
      return;
    }
    const server = createMcpSession(gateway, 'stdio', false, undefined, 'legacy').server;
    server.onerror = onerror;
    served = server.connect(opening).then(
      () => {
        opening.release();
        return { close: () => server.close() };
      },
      (error: unknown) => {
        log.warn(`the stdio session could not start: ${errorMessage(error)}`);
        return { close: () => opening.close() };
      },
    );
  });
  const listening = opening
    .listen()
    .catch((error: unknown) => onerror(error instanceof Error ? error : new Error(String(error))));
  return {
    close: async () => {
      await listening;
      await (served ? (await served).close() : opening.close());
    },
  };
}

/**
 * Whether a connection's first message opens it in the 2025 era as the SDK's stdio entry decides:
 * an `initialize` request that carries no protocol-version claim in its `_meta` (with one, the
 * entry looks further: that connection goes through it).
 */
export function opensLegacy(first: JSONRPCMessage): boolean {
  if (!isJSONRPCRequest(first) || first.method !== 'initialize') return false;
  const meta: unknown = (first.params as { _meta?: unknown } | undefined)?._meta;
  return !(meta !== null && typeof meta === 'object' && !Array.isArray(meta) && PROTOCOL_VERSION_META_KEY in meta);
}
