/**
 * 2026-07-28 over Streamable HTTP: no session, every request on its own, through the SDK's v2
 * handler (it checks the `_meta` envelope, the Mcp-Method and Mcp-Name headers, refuses an unknown
 * revision with -32022, serves subscriptions/listen). The state that spans calls (active powers,
 * what was shown, hints, the token ledger) is the authorization's: one standing part per user
 * (the owner's token is one user), set up once and kept while the user is active (modern-users.ts),
 * its state in the store when several replicas share it (shared-user-state.ts); each request's
 * Server only registers handlers on it (modern-request-server.ts). Each user has a handler of
 * their own, so their listen streams carry their own list changes and never another user's.
 */
import type { ServerResponse } from 'node:http';
import { createMcpHandler, isLegacyRequest, type McpHttpHandler } from '@modelcontextprotocol/server';
import { errorMessage, logger } from '../../log.js';
import type { Gateway } from '../gateway.js';
import { forwardChildNotifications } from '../passthrough/child-notifications.js';
import { modernRequestServer } from '../sessions/modern-request-server.js';
import { ModernUsers, type ModernUser } from '../sessions/modern-users.js';
import { sendWebResponse } from './web-exchange.js';

const log = logger('http');

export interface ModernHttp {
  /** Whether a POST is a 2026-07-28 request (the SDK's own classification, from the body already parsed). */
  isModern(request: Request, body: unknown): Promise<boolean>;
  /**
   * Answers `request` (the web form of `response`'s request, as isModern saw it); throws SessionLimitError
   * when the user has no session yet and none may open (http-server.ts answers 503).
   */
  serve(request: Request, response: ServerResponse, body: unknown, user: string | null): Promise<void>;
  close(): Promise<void>;
}

/**
 * Requests that read nothing of the user's state (the tool list is the same for every request,
 * a task is found by its owner and id, discovery names no power): another replica's changes need
 * not be adopted first. A listen stream does adopt them: it carries the active powers' changes.
 */
const STATELESS_METHODS = new Set(['tools/list', 'server/discover', 'tasks/get', 'tasks/update', 'tasks/cancel']);

export function modernHttp(gateway: Gateway): ModernHttp {
  const handlers = new WeakMap<ModernUser, McpHttpHandler>();
  /** A user's handler: its listen streams carry the user's own list changes, never another user's. */
  const attach = (user: ModernUser) => {
    const handler = createMcpHandler(() => modernRequestServer(gateway, user), {
      legacy: 'reject',
      onerror: (error) => log.debug(`modern request: ${errorMessage(error)}`),
    });
    // The user's active powers' prompt and resource list changes, on the user's listen streams (logging is
    // not carried: deprecated in 2026-07-28).
    const stopForwarding = forwardChildNotifications(
      {
        transport: handler,
        sendLoggingMessage: async () => undefined,
        sendPromptListChanged: async () => handler.notify.promptsChanged(),
        sendResourceListChanged: async () => handler.notify.resourcesChanged(),
      },
      gateway,
      user.id,
    );
    handlers.set(user, handler);
    return async () => {
      stopForwarding();
      await handler.close();
    };
  };
  const users = new ModernUsers(gateway, attach);

  return {
    async isModern(request, body) {
      // With the body already parsed, the predicate reads no body.
      return !(await isLegacyRequest(request, body));
    },
    async serve(request, response, body, user) {
      const standing = await users.enter(user ?? '');
      // Another replica may have served the user's last request: its changes first (a store that cannot be read leaves this replica's).
      const method = (body as { method?: unknown } | undefined)?.method;
      if (standing.shared && !(typeof method === 'string' && STATELESS_METHODS.has(method))) {
        await standing.shared
          .adopt(standing.id)
          .catch((error) => log.warn(`the session state of ${standing.id} was not read: ${errorMessage(error)}`));
      }
      // The user travels as data, never the bearer token.
      const answer = await handlers.get(standing)!.fetch(request, { parsedBody: body });
      sendWebResponse(response, answer);
    },
    close: () => users.close(),
  };
}
