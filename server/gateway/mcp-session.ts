import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage, logger } from '../log.js';
import type { StateChange } from '../upstream/connection.js';
import type { SampleFn } from '../calls/pipeline.js';
import type { Gateway } from './gateway.js';
import { VERSION } from '../version.js';

const log = logger('session');

export const GATEWAY_INSTRUCTIONS =
  'Grimoire is a gateway to many MCP servers ("powers"). You see only a few tools at first. ' +
  'When you need a capability you do not have, call resolve_intent with what you want to do; the matching ' +
  "power is activated and its tools appear in your list as '<power>__<tool>', each with the power's guidance.";

/**
 * One MCP server per client connection (the SDK binds a server to one transport); all of them
 * share the gateway. Each learns of tool list changes and tells its client.
 */
export function createMcpSession(gateway: Gateway, sessionId: string = randomUUID()): Server {
  const server = new Server(
    { name: 'grimoire', version: VERSION, title: 'Grimoire MCP gateway' },
    { capabilities: { tools: { listChanged: true }, logging: {} }, instructions: GATEWAY_INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: gateway.listTools() }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    const sample: SampleFn | undefined = server.getClientCapabilities()?.sampling
      ? (params, options) => server.createMessage(params, { timeout: options?.timeoutMs ?? 30_000 })
      : undefined;
    return gateway.callTool(request.params.name, args, { sessionId, signal: extra.signal, sample });
  });
  const onToolsChanged = () => {
    server.sendToolListChanged().catch((error) => log.debug(`list_changed not sent to ${sessionId}: ${errorMessage(error)}`));
  };
  const onPowerState = (change: StateChange) => {
    if (change.state !== 'crashed') return;
    server
      .sendLoggingMessage({ level: 'warning', logger: 'grimoire', data: `Power '${change.power}' ${change.detail ?? 'crashed'}` })
      .catch((error) => log.debug(`log message not sent to ${sessionId}: ${errorMessage(error)}`));
  };
  gateway.on('toolsChanged', onToolsChanged);
  gateway.on('powerState', onPowerState);
  server.onclose = () => {
    gateway.off('toolsChanged', onToolsChanged);
    gateway.off('powerState', onPowerState);
  };
  return server;
}
