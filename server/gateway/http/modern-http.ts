/**
 * 2026-07-28 over Streamable HTTP: no session, every request on its own, through the SDK's v2
 * handler (it checks the `_meta` envelope, the Mcp-Method and Mcp-Name headers, refuses an unknown
 * revision with -32022, serves subscriptions/listen). The state that spans calls (active powers,
 * what was shown, hints, the token ledger) is the authorization's: one gateway session per user
 * (the owner's token is one user), never shared with another user.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { createMcpHandler, isLegacyRequest, type McpHttpHandler } from '@modelcontextprotocol/server';
import { errorMessage, logger } from '../../log.js';
import type { Gateway } from '../gateway.js';
import { createMcpSession } from '../sessions/mcp-session.js';

const log = logger('http');

/** The gateway session a user's modern requests share. */
export const modernSessionId = (user: string | null) => `modern:${user ?? ''}`;

export interface ModernHttp {
  /** Whether a POST body is a 2026-07-28 request (the SDK's own classification). */
  isModern(request: IncomingMessage, body: unknown): Promise<boolean>;
  serve(request: IncomingMessage, response: ServerResponse, body: unknown, user: string | null): Promise<void>;
  close(): Promise<void>;
}

export function modernHttp(gateway: Gateway, url: () => string): ModernHttp {
  const handler: McpHttpHandler = createMcpHandler(
    ({ authInfo }) => {
      const user = typeof authInfo?.extra?.user === 'string' ? authInfo.extra.user : null;
      const id = modernSessionId(user);
      const session = createMcpSession(gateway, id, true, user ?? '', 'modern', true);
      if (user !== null) gateway.ports.activity.attributeSession(id, user);
      return session.server;
    },
    { legacy: 'reject', onerror: (error) => log.debug(`modern request: ${errorMessage(error)}`) },
  );
  return {
    async isModern(request, body) {
      return !(await isLegacyRequest(webRequest(request, url(), body), body));
    },
    async serve(request, response, body, user) {
      const aborted = new AbortController();
      response.once('close', () => aborted.abort());
      // The user travels as data, never the bearer token.
      const answer = await handler.fetch(webRequest(request, url(), body, aborted.signal), {
        parsedBody: body,
        authInfo: { token: '', clientId: user ?? '', scopes: [], extra: { user } },
      });
      response.writeHead(answer.status, Object.fromEntries(answer.headers));
      if (!answer.body) return void response.end();
      Readable.fromWeb(answer.body as WebReadableStream<Uint8Array>).pipe(response);
    },
    close: () => handler.close(),
  };
}

function webRequest(request: IncomingMessage, url: string, body: unknown, signal?: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const method = request.method ?? 'GET';
  return new Request(url, { method, headers, ...(method === 'POST' ? { body: JSON.stringify(body) } : {}), ...(signal ? { signal } : {}) });
}
