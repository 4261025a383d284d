/** Everything of a power besides its tools, wired into one MCP session: prompts, resources, completion, client requests, notifications. */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { forwardChildNotifications } from './child-notifications.js';
import { forwardClientRequests, sessionScope } from './client-requests-forwarding.js';
import { registerCompletion } from './completion-passthrough.js';
import type { PassthroughPorts } from './passthrough-ports.js';
import { registerPrompts } from './prompts-passthrough.js';
import { registerResources } from './resources-passthrough.js';

/** Registers the handlers; returns what to undo when the session closes. */
export function registerPassthrough(server: Server, gateway: PassthroughPorts, sessionId: string): () => void {
  const inScope = sessionScope(sessionId);
  const undo = [forwardClientRequests(server, gateway.manager.features, sessionId), forwardChildNotifications(server, gateway, sessionId)];
  registerPrompts(server, gateway, sessionId, inScope);
  undo.push(registerResources(server, gateway, sessionId, inScope));
  registerCompletion(server, gateway, sessionId, inScope);
  return () => undo.forEach((fn) => fn());
}
