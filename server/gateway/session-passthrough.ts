/** Everything of a power besides its tools, wired into one MCP session: prompts, resources, completion, client requests, notifications. */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { forwardChildNotifications } from './child-notifications.js';
import type { CallScope } from '../upstream/client-features.js';
import { forwardClientRequests } from './client-requests-forwarding.js';
import { registerCompletion } from './completion-passthrough.js';
import type { PassthroughPorts } from './passthrough-ports.js';
import { registerPrompts } from './prompts-passthrough.js';
import { registerResources } from './resources-passthrough.js';

/** Registers the handlers; returns what to undo when the session closes. */
export function registerPassthrough(server: Server, gateway: PassthroughPorts, sessionId: string): () => void {
  // The session's prompt gets, resource reads and completions are made for it (no progress: they carry no token).
  const scope: CallScope = { sessionId };
  const undo = [forwardClientRequests(server, gateway.ports.manager.features, sessionId), forwardChildNotifications(server, gateway, sessionId)];
  registerPrompts(server, gateway, sessionId, scope);
  undo.push(registerResources(server, gateway, sessionId, scope));
  registerCompletion(server, gateway, sessionId, scope);
  return () => undo.forEach((fn) => fn());
}
