/**
 * One session's side of what powers' servers ask of the agent's client: the session registers
 * with the hub once initialized (its sampling, elicitation and roots), sets its log level, tells
 * the servers its roots changed; agentProgress passes a call's progress back to it.
 */
import type { CreateMessageRequest, Server, ServerContext } from '@modelcontextprotocol/server';
import type { CallScope, ClientFeatureHub } from '../../upstream/client-features.js';
import { maskSecrets } from '../../util/secrets.js';

/** Where a power's progress goes for one request from the agent: to it, with its own token, when it sent one (its message masked). */
export function agentProgress(
  request: { params?: { _meta?: { progressToken?: string | number } } },
  ctx: Pick<ServerContext, 'mcpReq'>,
): CallScope['onprogress'] {
  const progressToken = request.params?._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  return (progress) => {
    const params = progress.message
      ? { ...progress, message: maskSecrets(progress.message), progressToken }
      : { ...progress, progressToken };
    void ctx.mcpReq.notify({ method: 'notifications/progress', params }).catch(() => undefined);
  };
}

export function forwardClientRequests(server: Server, hub: ClientFeatureHub, sessionId: string): () => void {
  const previous = server.oninitialized;
  server.oninitialized = () => {
    hub.addSession({
      id: sessionId,
      capabilities: () => server.getClientCapabilities(),
      createMessage: (params, options) => server.createMessage(params as CreateMessageRequest['params'], options),
      elicit: (params, options) => server.elicitInput(params, options),
      listRoots: (options) => server.listRoots(undefined, options),
    });
    previous?.();
  };
  server.setRequestHandler('logging/setLevel', async (request) => {
    hub.setLogLevel(sessionId, request.params.level);
    return {};
  });
  server.setNotificationHandler('notifications/roots/list_changed', async () => hub.rootsChanged());
  return () => hub.removeSession(sessionId);
}
