import { randomUUID } from 'node:crypto';
import {
  Server,
  type ClientCapabilities,
  type CreateMessageRequest,
  type ListToolsResult,
  type Transport,
} from '@modelcontextprotocol/server';
import { errorMessage, logger } from '../../log.js';
import { Cancellation } from '../../util/cancellation.js';
import { maskSecrets } from '../../util/secrets.js';
import type { SampleFn } from '../../calls/pipeline.js';
import type { Gateway } from '../gateway.js';
import { isVsCodeClient, samplingAllowed } from '../../intel/summarizers/sampling-gate.js';
import { agentProgress, forwardClientRequests } from '../passthrough/client-requests-forwarding.js';
import { forwardChildNotifications } from '../passthrough/child-notifications.js';
import { registerCompletion } from '../passthrough/completion-passthrough.js';
import type { PassthroughPorts } from '../passthrough/passthrough-ports.js';
import { registerPrompts } from '../passthrough/prompts-passthrough.js';
import { registerResources } from '../passthrough/resources-passthrough.js';
import type { CallScope } from '../../upstream/client-features.js';
import { GATEWAY_INSTRUCTIONS, SERVER_INFO, SESSION_CAPABILITIES } from './session-info.js';
import { MODERN_CACHE_HINTS, modernToolList, type Era } from './modern-era.js';
import { keepLegacyResourceCodes } from './legacy-error-codes.js';
import { inputBridgeOf } from './input-bridge.js';
import { registerTaskMethods } from './task-methods.js';
import { callTasksOf, TASKS_EXTENSION } from './call-tasks.js';
import { modernCallHandler } from './modern-calls.js';

/** How long a power's question to a modern client waits for the client's retry. */
export const RETRY_WAIT_MS = 120_000;

const log = logger('session');

/** One agent's MCP session: its SDK Server, which answers every request through its handlers. */
export interface McpSession {
  server: Server;
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
}

/**
 * One MCP server per client connection (the SDK binds a server to one transport); all of them
 * share the gateway, each with its own active powers and tool list (the gateway's session registry
 * tells it when its list changed: no per-session listeners on the gateway).
 * `era`: a 2026-07-28 client ('modern') gets a tool list that never changes with activation (modern-era.ts);
 * a 2025 one ('legacy') sees an active power's tools join its list.
 * `expires`: closed after the idle timeout (HTTP sessions); `client`: whose it is (SessionRegistry.makeRoom).
 * Throws SessionLimitError past the cap.
 */
export function createMcpSession(
  gateway: Gateway,
  sessionId: string = randomUUID(),
  expires = false,
  client?: string,
  era: Era = 'legacy',
): McpSession {
  const server = new SessionServer(era);
  server.setRequestHandler('tools/list', async () => {
    gateway.ports.sessions.touch(sessionId);
    const tools = era === 'modern' ? modernToolList() : gateway.listTools(sessionId);
    gateway.ports.intel.reads.listed(sessionId, tools, isVsCodeClient(server.getClientVersion()?.name));
    // The gateway's records are typed by the v1 package (the powers' side); the wire shape is the same.
    return { tools } as ListToolsResult;
  });
  // A modern client's requests each declare what it can do: the union of what this session's did.
  let declared: ClientCapabilities = {};
  const bridge = era === 'modern' ? inputBridgeOf(gateway, RETRY_WAIT_MS) : undefined;
  const tasks = era === 'modern' ? callTasksOf(gateway, RETRY_WAIT_MS) : undefined;
  const modernCall =
    bridge && tasks
      ? modernCallHandler(gateway, {
          sessionId,
          bridge,
          tasks,
          declare: (requested) => (declared = { ...declared, ...requested }),
        })
      : undefined;
  if (tasks) registerTaskMethods(server, tasks, sessionId, () => gateway.ports.sessions.touch(sessionId));
  server.setRequestHandler('tools/call', async (request, ctx) => {
    gateway.ports.sessions.touch(sessionId);
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    // Progress goes to the request that started the call (a retry's own stream carries none).
    if (modernCall) return modernCall(request.params.name, args, ctx, agentProgress(request, ctx));
    const sample: SampleFn | undefined =
      server.getClientCapabilities()?.sampling &&
      samplingAllowed(server.getClientVersion()?.name, gateway.ports.settings.intel.summarizers)
        ? (params, options) =>
            server.createMessage(params as CreateMessageRequest['params'], { timeout: options?.timeoutMs ?? 30_000 })
        : undefined;
    return gateway.callTool(request.params.name, args, {
      sessionId,
      onprogress: agentProgress(request, ctx),
      cancellation: Cancellation.following(ctx.mcpReq.signal),
      sample,
    });
  });
  gateway.openSession(
    sessionId,
    {
      // A modern client's list never changes with activation: nothing to announce.
      toolsChanged: () =>
        era === 'modern'
          ? undefined
          : server
              .sendToolListChanged()
              .catch((error) => log.debug(`list_changed not sent to ${sessionId}: ${errorMessage(error)}`)),
      log: (message) =>
        server
          .sendLoggingMessage({ level: 'warning', logger: 'grimoire', data: maskSecrets(message) })
          .catch((error) => log.debug(`log message not sent to ${sessionId}: ${errorMessage(error)}`)),
      close: () => server.close(),
    },
    expires,
    client,
  );
  const undoPassthrough = registerPassthrough(server, gateway, sessionId);
  // A modern session's powers ask it through input_required (input-bridge.ts).
  if (bridge)
    gateway.ports.manager.features.addSession({
      id: sessionId,
      capabilities: () => declared,
      ...bridge.peer(sessionId),
    });
  server.onclose = () => {
    undoPassthrough();
    // The connection was the owner of its tasks: nobody can reach them any more.
    tasks?.closeOwner(sessionId);
    gateway.closeSession(sessionId);
  };
  return {
    server,
    connect: (transport) => server.connect(transport),
    close: () => server.close(),
  };
}

/** The SDK's Server in one era: a legacy one keeps the 2025 error codes (legacy-error-codes.ts). */
export class SessionServer extends Server {
  constructor(private readonly sessionEra: Era) {
    // A modern session offers the tasks extension (call-tasks.ts); a legacy one has no such extension.
    const capabilities =
      sessionEra === 'modern'
        ? { ...SESSION_CAPABILITIES, extensions: { [TASKS_EXTENSION]: {} } }
        : SESSION_CAPABILITIES;
    super(SERVER_INFO, { capabilities, instructions: GATEWAY_INSTRUCTIONS, cacheHints: MODERN_CACHE_HINTS });
  }

  /** Every transport the session answers on is masked, a modern HTTP request's own included. */
  override async connect(transport: Transport): Promise<void> {
    maskErrorAnswers(transport);
    const connected = this.sessionEra === 'legacy' ? keepLegacyResourceCodes(transport) : undefined;
    await super.connect(transport);
    connected?.();
  }
}

/**
 * Every error answer the session sends (a power's error from a prompt, a resource read, a
 * completion, as the SDK passes it on) has its message masked, as the gateway's own log is.
 */
export function maskErrorAnswers(transport: Transport): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if (!('error' in message) || typeof message.error?.message !== 'string') return send(message, options);
    const masked = maskSecrets(message.error.message);
    return send(
      masked === message.error.message ? message : { ...message, error: { ...message.error, message: masked } },
      options,
    );
  };
}

/**
 * Everything of a power besides its tools, wired into one MCP session (prompts, resources, completion, client
 * requests, notifications); returns what to undo when the session closes.
 */
function registerPassthrough(server: Server, gateway: PassthroughPorts, sessionId: string): () => void {
  // The session's prompt gets, resource reads and completions are made for it (no progress: they carry no token).
  const scope: CallScope = { sessionId };
  const undo = [
    forwardClientRequests(server, gateway.ports.manager.features, sessionId),
    forwardChildNotifications(server, gateway, sessionId),
  ];
  registerPrompts(server, gateway, sessionId, scope);
  undo.push(registerResources(server, gateway, sessionId, scope));
  registerCompletion(server, gateway, sessionId, scope);
  return () => undo.forEach((fn) => fn());
}
