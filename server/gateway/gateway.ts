import { EventEmitter } from 'node:events';
import type { CallToolResult, Tool } from '../util/mcp-types.js';
import type { CallerContext } from '../calls/call-runner.js';
import { errorResult } from '../calls/results.js';
import { preview } from '../../shared/preview.js';
import type { Activation } from './activation.js';
import type { GatewayEvents, GatewayPorts } from './ports.js';
import { handleGatewayTool } from './gateway-tool-handlers.js';
import { isGatewayToolName } from './gateway-tools.js';
import { awaitingReview } from '../trust/tool-policy.js';
import type { SessionHandle, SessionState } from './sessions/session-registry.js';
import { splitQualifiedName } from './tool-names.js';

export type { CallerContext } from '../calls/call-runner.js';
export type { GatewayEvents } from './ports.js';
export type { ResolveOutcome } from './resolution.js';

/** What the gateway is handed by the composition root (server/composition-root.ts), which builds it all. */
export interface GatewayWiring {
  ports: GatewayPorts;
  activation: Pick<Activation, 'listTools' | 'updateExposure'>;
  notices: EventEmitter<GatewayEvents>;
  shutdown(): Promise<void>;
}

/**
 * The MCP surface shared by every session over stdio and HTTP: sessions open and close, each lists
 * its tools, and a tools/call is answered by a gateway tool, an intent-declared call or an active
 * power's tool. It builds nothing: the composition root hands it the ports (ports.ts), which its
 * tool handlers, the HTTP and REST surfaces, the passthrough and the CLI use (`gateway.ports`);
 * the JSON-RPC handlers take the same object (rpc/rpc-ports.ts). Emits GatewayEvents.
 */
export class Gateway extends EventEmitter<GatewayEvents> {
  readonly ports: GatewayPorts;

  constructor(private readonly wiring: GatewayWiring) {
    super();
    this.ports = wiring.ports;
    wiring.notices.on('toolsChanged', () => this.emit('toolsChanged'));
    wiring.notices.on('powerState', (change) => this.emit('powerState', change));
    wiring.notices.on('toolsQuarantined', (reviews) => this.emit('toolsQuarantined', reviews));
    wiring.notices.on('powerListed', (power) => this.emit('powerListed', power));
    wiring.notices.on('matchingChanged', () => this.emit('matchingChanged'));
  }

  /** Registers an MCP session (stdio: one; HTTP: one per client). Throws SessionLimitError past the cap. */
  openSession(id: string, handle: SessionHandle, expires: boolean, client?: string): SessionState {
    const state = this.ports.sessions.open(id, handle, expires, client);
    this.wiring.activation.updateExposure();
    return state;
  }

  /** Frees a session's state; its powers' children are left to the idle rule. */
  closeSession(id: string): void {
    this.ports.sessions.close(id);
  }

  /** The tool list of a session (the window's without one). */
  listTools(sessionId?: string): Tool[] {
    return this.wiring.activation.listTools(sessionId);
  }

  /** Answers a tools/call from any session: a gateway tool, an intent-declared call, or an active power's tool. */
  async callTool(name: string, args: Record<string, unknown>, caller: CallerContext): Promise<CallToolResult> {
    const ports = this.ports;
    if (isGatewayToolName(name)) return handleGatewayTool(ports, name, args, caller);
    const state = ports.sessions.state(caller.sessionId);
    const exposed = state.exposed.get(name);
    if (!exposed) {
      const held = splitQualifiedName(name);
      if (held && ports.policy.isHeld(held.power, held.tool))
        return errorResult(awaitingReview(`${held.power}:${held.tool}`), { code: 'awaiting_review' });
      return errorResult(unknownToolMessage(name, [...state.active]));
    }
    const tool = ports.toolsOf(exposed.power).find((t) => t.name === exposed.tool);
    // The annotations validation trusts for a tool: the spell's, else the server's, else inferred.
    const annotations = ports.annotationsOf(exposed.power, tool ?? { name: exposed.tool });
    return ports.runCall(
      { power: exposed.power, tool: exposed.tool, calledAs: name, args, variant: 'direct', annotations },
      caller,
    );
  }

  shutdown(): Promise<void> {
    return this.wiring.shutdown();
  }
}

function unknownToolMessage(name: string, active: string[]): string {
  if (name === 'call_tool') {
    return (
      "Tool 'call_tool' was not found: use call_tool_read, call_tool_write or call_tool_destructive " +
      "(declaring the intent), or call an active power's tool directly as '<power>__<tool>'."
    );
  }
  const activeText = active.length ? `Active powers: ${active.join(', ')}.` : 'No power is active.';
  return `Tool '${preview(name)}' is not available. ${activeText} Call resolve_intent to find and activate the power you need.`;
}
