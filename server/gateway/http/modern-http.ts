/**
 * 2026-07-28 over Streamable HTTP: no session, every request on its own, through the SDK's v2
 * handler (it checks the `_meta` envelope, the Mcp-Method and Mcp-Name headers, refuses an unknown
 * revision with -32022, serves subscriptions/listen). The state that spans calls (active powers,
 * what was shown, hints, the token ledger) is the authorization's: one gateway session per user
 * (the owner's token is one user), kept in the store when several replicas share it
 * (shared-user-state.ts). Each user has a handler of their own, so their listen streams
 * carry their own list changes and never another user's.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createMcpHandler, isLegacyRequest, type McpHttpHandler } from '@modelcontextprotocol/server';
import { errorMessage, logger } from '../../log.js';
import type { Gateway } from '../gateway.js';
import { forwardChildNotifications } from '../passthrough/child-notifications.js';
import { createMcpSession } from '../sessions/mcp-session.js';
import { clientName, type SessionHandle } from '../sessions/session-registry.js';
import { sharedUserStateOf } from '../sessions/shared-user-state.js';
import { sendWebResponse, webHeaders, webRequest } from './web-exchange.js';

const log = logger('http');

/** The gateway session a user's modern requests share. */
export const modernSessionId = (user: string | null) => `modern:${user ?? ''}`;

export interface ModernHttp {
  /** Whether a POST body is a 2026-07-28 request (the SDK's own classification). */
  isModern(request: IncomingMessage, body: unknown): Promise<boolean>;
  /** Throws SessionLimitError when the user has no session yet and none may open (http-server.ts answers 503). */
  serve(request: IncomingMessage, response: ServerResponse, body: unknown, user: string | null): Promise<void>;
  close(): Promise<void>;
}

/** A modern user's session has no connection to tell or close: its requests each stand alone. */
const STANDALONE: SessionHandle = { toolsChanged: () => undefined, log: () => undefined, close: () => undefined };

interface UserHandler {
  handler: McpHttpHandler;
  stopForwarding: () => void;
}

export function modernHttp(gateway: Gateway, url: () => string): ModernHttp {
  const handlers = new Map<string, UserHandler>();

  const handlerOf = (user: string | null): McpHttpHandler => {
    const id = modernSessionId(user);
    const known = handlers.get(id);
    if (known) return known.handler;
    const handler = createMcpHandler(
      () => {
        const session = createMcpSession(gateway, id, true, user ?? '', 'modern', true);
        if (user !== null) gateway.ports.activity.attributeSession(id, user);
        return session.server;
      },
      { legacy: 'reject', onerror: (error) => log.debug(`modern request: ${errorMessage(error)}`) },
    );
    // The user's active powers' prompt and resource list changes, on the user's listen streams (logging is not carried: deprecated in 2026-07-28).
    const stopForwarding = forwardChildNotifications(
      {
        transport: handler,
        sendLoggingMessage: async () => undefined,
        sendPromptListChanged: async () => handler.notify.promptsChanged(),
        sendResourceListChanged: async () => handler.notify.resourcesChanged(),
      },
      gateway,
      id,
    );
    handlers.set(id, { handler, stopForwarding });
    return handler;
  };

  return {
    async isModern(request, body) {
      // Classified from the headers and the body already parsed (the predicate then reads no body).
      return !(await isLegacyRequest(new Request(url(), { method: 'POST', headers: webHeaders(request) }), body));
    },
    async serve(request, response, body, user) {
      const id = modernSessionId(user);
      const shared = sharedUserStateOf(gateway.ports);
      if (!gateway.ports.sessions.has(id)) {
        // Fair sessions, as for a 2025 client's initialize: the user's session takes a place of the user's.
        for (const closed of await gateway.ports.sessions.makeRoom(user ?? '')) log.info(`closed session ${closed} to make room for the modern requests of ${clientName(user ?? '')}`);
        gateway.openSession(id, STANDALONE, true, user ?? '');
        shared?.opened(id);
      }
      // Another replica may have served the user's last request: its changes first (a store that cannot be read leaves this replica's).
      await shared
        ?.adopt(id)
        .catch((error) => log.warn(`the session state of ${id} was not read: ${errorMessage(error)}`));
      // The user travels as data, never the bearer token.
      const answer = await handlerOf(user).fetch(webRequest(request, response, url()), { parsedBody: body });
      sendWebResponse(response, answer);
    },
    async close() {
      const all = [...handlers.values()];
      handlers.clear();
      for (const { stopForwarding } of all) stopForwarding();
      await Promise.allSettled(all.map(({ handler }) => handler.close()));
    },
  };
}
