import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage, logger } from '../log.js';
import type { Gateway } from './gateway.js';
import type { Identity } from '../users/identity.js';
import { authenticate, checkOrigin } from './http-guard.js';
import { fromProxy, isLoopbackHost } from './http-bind.js';
import { createMcpSession } from './mcp-session.js';
import { handleRestApi } from './rest-api.js';

const log = logger('http');
const MAX_BODY_BYTES = 4 * 1024 * 1024;

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
}

/**
 * Streamable HTTP, one MCP session per client, every request authenticated: on 127.0.0.1 by
 * default, on another address for a team (TLS or a reverse proxy). A session belongs to the
 * identity that opened it; its calls are recorded as that user's.
 */
export async function serveHttp(gateway: Gateway, options: HttpOptions = {}): Promise<HttpEndpoint> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const owners = new Map<string, string | null>();
  const host = options.host ?? '127.0.0.1';
  const publicBind = !isLoopbackHost(host);
  let port = 0;

  const listener: RequestListener = (request, response) => {
    handle(request, response).catch((error) => {
      log.warn(`request failed: ${errorMessage(error)}`);
      if (!response.headersSent) sendError(response, 500, `Internal error: ${errorMessage(error)}`);
    });
  };
  const httpServer = options.tls ? createTlsServer({ cert: options.tls.cert, key: options.tls.key }, listener) : createServer(listener);

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (options.behindProxy && !fromProxy(request, options.behindProxy)) return sendError(response, 403, 'Only the reverse proxy may connect to this gateway.');
    const verdict = checkOrigin(request, port, publicBind);
    if (verdict) return sendError(response, verdict.status, verdict.message);
    const identity = authenticate(request, token, options.users);
    if ('status' in identity) {
      response.setHeader('WWW-Authenticate', 'Bearer realm="grimoire"');
      return sendError(response, identity.status, identity.message);
    }
    if (handleRestApi(gateway, request, response)) return;
    if (new URL(request.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp') return sendError(response, 404, 'Not found: the MCP endpoint is /mcp.');
    const sessionId = request.headers['mcp-session-id'];
    const body = request.method === 'POST' ? await readJson(request) : undefined;
    if (typeof sessionId === 'string') {
      const transport = sessions.get(sessionId);
      if (!transport || owners.get(sessionId) !== identity.user) return sendError(response, 404, `Session '${sessionId}' is unknown or closed: initialize a new session.`);
      return transport.handleRequest(request, response, body);
    }
    if (request.method !== 'POST' || !isInitializeRequest(body)) {
      return sendError(response, 400, 'No session: send an initialize request first, then the mcp-session-id header with every request.');
    }
    const id = randomUUID();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: (sid) => {
        sessions.set(sid, transport);
        owners.set(sid, identity.user);
        if (identity.user !== null) gateway.activity.attributeSession(sid, identity.user);
      },
    });
    transport.onclose = () => {
      sessions.delete(id);
      owners.delete(id);
      gateway.activity.attributeSession(id, undefined);
    };
    await createMcpSession(gateway, id).connect(transport);
    await transport.handleRequest(request, response, body);
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
      await Promise.allSettled([...sessions.values()].map((transport) => transport.close()));
      await new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      });
    },
  };
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error(`request body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function sendError(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
