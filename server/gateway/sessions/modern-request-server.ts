/**
 * The Server of one 2026-07-28 HTTP request (the SDK's handler makes one per request): handlers
 * only, over the user's standing part (modern-users.ts), which outlives it. Nothing is set up or
 * undone per request: the user's session, hub entry and tasks stay when the request ends.
 */
import type { ListToolsResult } from '@modelcontextprotocol/server';
import { isVsCodeClient } from '../../intel/summarizers/sampling-gate.js';
import type { CallScope } from '../../upstream/client-features.js';
import type { Gateway } from '../gateway.js';
import { agentProgress } from '../passthrough/client-requests-forwarding.js';
import { registerCompletion } from '../passthrough/completion-passthrough.js';
import { registerPrompts } from '../passthrough/prompts-passthrough.js';
import { registerResourceReads } from '../passthrough/resources-passthrough.js';
import { SessionServer } from './mcp-session.js';
import { passCallLogs } from './modern-call-logs.js';
import { modernCallHandler } from './modern-calls.js';
import { modernToolList } from './modern-era.js';
import type { ModernUser } from './modern-users.js';
import { registerTaskMethods } from './task-methods.js';

export function modernRequestServer(gateway: Gateway, user: ModernUser): SessionServer {
  const { id } = user;
  const server = new SessionServer('modern');
  server.setRequestHandler('tools/list', async () => {
    const tools = modernToolList();
    gateway.ports.intel.reads.listed(id, tools, isVsCodeClient(server.getClientVersion()?.name));
    // The gateway's records are typed by the v1 package (the powers' side); the wire shape is the same.
    return { tools } as ListToolsResult;
  });
  const call = modernCallHandler(gateway, {
    sessionId: id,
    bridge: user.bridge,
    tasks: user.tasks,
    ...(user.shared ? { shared: user.shared } : {}),
    declare: user.declare,
  });
  // Progress goes to the request that started the call (a retry's own stream carries none); so do the powers'
  // log messages, when it asked for them.
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const stopLogs = passCallLogs(gateway.ports.manager.features, id, ctx);
    try {
      return await call(
        request.params.name,
        (request.params.arguments ?? {}) as Record<string, unknown>,
        ctx,
        agentProgress(request, ctx),
      );
    } finally {
      stopLogs();
    }
  });
  // A user's tasks are answered for on every replica when the user's state is (a team's store).
  registerTaskMethods(server, user.tasks, id, () => undefined, Boolean(user.shared));
  // The user's prompt gets, resource reads and completions are made for the user's session (no progress: they carry no token).
  const scope: CallScope = { sessionId: id };
  registerPrompts(server, gateway, id, scope);
  registerResourceReads(server, gateway, id, scope);
  registerCompletion(server, gateway, id, scope);
  return server;
}
