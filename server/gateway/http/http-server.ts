import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import {
  isInitializeRequest,
  ProtocolErrorCode,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { errorMessage, logger } from '../../log.js';
import { byteSize, preview } from '../../../shared/preview.js';
import type { Gateway } from '../gateway.js';
import { readJsonBody } from './http-body.js';
import type { Identity } from '../../users/identity.js';
import { authenticate, checkOrigin } from './http-guard.js';
import { fromProxy, isLoopbackHost } from './http-bind.js';
import { createMcpSession } from '../sessions/mcp-session.js';
import { modernHttp } from './modern-http.js';
import { sendWebResponse, webRequest } from './web-exchange.js';
import { handleRestApi } from './rest-api.js';
import { clientName, SessionLimitError } from '../sessions/session-registry.js';
import { maskSecrets } from '../../util/secrets.js';

const log = logger('http');

export interface HttpEndpoint {
  url: string;
  token: string;
  port: number;
  close(): Promise<void>;
}

export interface HttpOptions {
  port?: number;
  token?: string;
  /** Address to bind (default 127.0.0.1); another one needs `tls` or `behindProxy` (see http-bind.ts). */
  host?: string;
  tls?: { cert: Buffer; key: Buffer };
  /** Only this address (the reverse proxy) may connect. */
  behindProxy?: string;
  /** Identifies a user's bearer token (`grimoire users add`); the owner's `token` is always accepted. */
  users?: (bearer: string) => Identity | undefined;
  /** The admin token (GRIMOIRE_ADMIN_TOKEN): approves and rejects tool changes over REST, opens no MCP session. */
  adminToken?: string;
}

/**
 * Streamable HTTP, one MCP session per 2025 client (a 2026-07-28 client's requests stand alone:
 * modern-http.ts), every request authenticated: on 127.0.0.1 by
 * default, on another address for a team (TLS or a reverse proxy). A session belongs to the
 * identity that opened it; its calls are recorded as that user's.
 */
export async function serveHttp(gateway: Gateway, options: HttpOptions = {}): Promise<HttpEndpoint> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const owners = new Map<string, string | null>();
  const host = options.host ?? '127.0.0.1';
  const publicBind = !isLoopbackHost(host);
  let port = 0;
  const mcpUrl = () => `http://127.0.0.1:${port}/mcp`;
  const modern = modernHttp(gateway);
  /** A legacy session's exchange through its SDK transport. */
  const exchange = async (
    transport: WebStandardStreamableHTTPServerTransport,
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
    web = webRequest(request, response, mcpUrl()),
  ) => sendWebResponse(response, await transport.handleRequest(web, { parsedBody: body }));

  const listener: RequestListener = (request, response) => {
    handle(request, response).catch((error) => {
      log.warn(`request failed: ${errorMessage(error)}`);
      if (!response.headersSent) sendError(response, 500, `Internal error: ${preview(errorMessage(error), 200)}`);
    });
  };
  const httpServer = options.tls
    ? createTlsServer({ cert: options.tls.cert, key: options.tls.key }, listener)
    : createServer(listener);

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (options.behindProxy && !fromProxy(request, options.behindProxy))
      return sendError(response, 403, 'Only the reverse proxy may connect to this gateway.');
    const verdict = checkOrigin(request, port, publicBind);
    if (verdict) return sendError(response, verdict.status, verdict.message);
    const identity = authenticate(request, token, options.users, options.adminToken);
    if ('status' in identity) {
      response.setHeader('WWW-Authenticate', 'Bearer realm="grimoire"');
      return sendError(response, identity.status, identity.message);
    }
    if (await handleRestApi(gateway, request, response, identity)) return;
    if (new URL(request.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp')
      return sendError(response, 404, 'Not found: the MCP endpoint is /mcp.');
    if (identity.reviewer)
      return sendError(
        response,
        403,
        'The admin token decides tool reviews over REST (/api/v1/tools/...); it opens no MCP session: use an MCP token.',
      );
    const sessionId = request.headers['mcp-session-id'];
    let body: unknown;
    if (request.method === 'POST') {
      const limit = gateway.ports.settings.limits.requestBytes;
      const read = await readJsonBody(request, limit);
      if (read.kind === 'too-large') {
        if (!read.drained) response.setHeader('connection', 'close');
        const size = read.drained || read.declared ? byteSize(read.bytes) : `over ${byteSize(read.bytes)}`;
        log.warn(`refused a request body of ${size} (limit ${byteSize(limit)})`);
        return sendError(
          response,
          413,
          `Request too large: the body is ${size}; the limit is ${byteSize(limit)} (setting limits.requestBytes).`,
          ProtocolErrorCode.InvalidRequest,
        );
      }
      if (read.kind === 'invalid-json')
        return sendError(
          response,
          400,
          `Parse error: the body is not valid JSON (${read.reason}).`,
          ProtocolErrorCode.ParseError,
        );
      body = read.value;
    }
    // A 2026-07-28 request has no session: it is answered on its own (modern-http.ts).
    const web =
      typeof sessionId !== 'string' && request.method === 'POST' ? webRequest(request, response, mcpUrl()) : undefined;
    if (web && (await modern.isModern(web, body))) {
      try {
        return await modern.serve(web, response, body, identity.user);
      } catch (error) {
        if (error instanceof SessionLimitError) return sendError(response, 503, error.message);
        throw error;
      }
    }
    if (typeof sessionId === 'string') {
      const transport = sessions.get(sessionId);
      if (!transport || owners.get(sessionId) !== identity.user)
        return sendError(
          response,
          404,
          `Session '${preview(sessionId, 64)}' is unknown or closed: initialize a new session.`,
        );
      gateway.ports.sessions.touch(sessionId);
      return exchange(transport, request, response, body);
    }
    if (request.method !== 'POST' || !isInitializeRequest(body)) {
      return sendError(
        response,
        400,
        'No session: send an initialize request first, then the mcp-session-id header with every request.',
      );
    }
    // Fair sessions: per client (the owner's token, or a team user), then for all (session-registry.ts).
    const client = identity.user ?? '';
    try {
      for (const closed of await gateway.ports.sessions.makeRoom(client))
        log.info(`closed session ${closed} to make room for a new one of ${clientName(client)}`);
    } catch (error) {
      if (error instanceof SessionLimitError) return sendError(response, 503, error.message);
      throw error;
    }
    const id = randomUUID();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: (sid) => {
        sessions.set(sid, transport);
        owners.set(sid, identity.user);
        if (identity.user !== null) gateway.ports.activity.attributeSession(sid, identity.user);
      },
    });
    transport.onclose = () => {
      sessions.delete(id);
      owners.delete(id);
      gateway.ports.activity.attributeSession(id, undefined);
    };
    const session = createMcpSession(gateway, id, true, client);
    await session.connect(transport);
    await exchange(transport, request, response, body, web);
  }

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port ?? 0, host, () => resolve());
  });
  port = (httpServer.address() as AddressInfo).port;

  return {
    url: `${options.tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}/mcp`,
    token,
    port,
    async close() {
      await Promise.allSettled([...sessions.values()].map((transport) => transport.close()).concat(modern.close()));
      await new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      });
    },
  };
}

/** -32000: the code the SDK's own transport uses for errors outside JSON-RPC's reserved range. */
function sendError(response: ServerResponse, status: number, message: string, code: number = -32000): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message: maskSecrets(message) }, id: null }));
}
