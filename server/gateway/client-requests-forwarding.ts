/**
 * One session's side of what powers' servers ask of the agent's client: the session registers
 * with the hub once initialized (its sampling, elicitation and roots), sets its log level, tells
 * the servers its roots changed, and scopes each request so the servers' requests and progress
 * reach it.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { RootsListChangedNotificationSchema, SetLevelRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { runInCallScope, type CallScope, type ClientFeatureHub } from '../upstream/client-features.js';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** The scope of one request from the agent: its session, and its progress token when it sent one. */
export function callScope(sessionId: string, request: { params?: { _meta?: { progressToken?: string | number } } }, extra: Extra): CallScope {
  const progressToken = request.params?._meta?.progressToken;
  if (progressToken === undefined) return { sessionId };
  return {
    sessionId,
    onprogress: (progress) => void extra.sendNotification({ method: 'notifications/progress', params: { ...progress, progressToken } }).catch(() => undefined),
  };
}

/** Runs `fn` in the scope of the session (no progress): for requests that carry no token. */
export function sessionScope(sessionId: string): <T>(fn: () => Promise<T>) => Promise<T> {
  return (fn) => runInCallScope({ sessionId }, fn);
}

export function forwardClientRequests(server: Server, hub: ClientFeatureHub, sessionId: string): () => void {
  const previous = server.oninitialized;
  server.oninitialized = () => {
    hub.addSession({
      id: sessionId,
      capabilities: () => server.getClientCapabilities(),
      createMessage: (params, options) => server.createMessage(params, options),
      elicit: (params, options) => server.elicitInput(params, options),
      listRoots: (options) => server.listRoots(undefined, options),
    });
    previous?.();
  };
  server.setRequestHandler(SetLevelRequestSchema, async (request) => {
    hub.setLogLevel(sessionId, request.params.level);
    return {};
  });
  server.setNotificationHandler(RootsListChangedNotificationSchema, async () => hub.rootsChanged());
  return () => hub.removeSession(sessionId);
}
