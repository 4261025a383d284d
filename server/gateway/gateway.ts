import { EventEmitter } from 'node:events';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Settings } from '../config/settings.js';
import type { EffectiveAnnotations } from '../calls/annotations.js';
import type { CallerContext, CallRequest } from '../calls/call-runner.js';
import { variantOf } from '../calls/intent.js';
import { errorResult } from '../calls/results.js';
import type { GatewayParts } from './gateway-parts.js';
import type { PowerDefinition } from '../powers/types.js';
import type { ResolverStatus } from '../resolve/hybrid-resolver.js';
import { preview } from '../util/preview.js';
import type { ExposedTool } from './exposure.js';
import type { GatewayEvents } from './gateway-events.js';
import { handleGatewayTool } from './gateway-tool-handlers.js';
import { GATEWAY_TOOL_NAMES } from './gateway-tools.js';
import { handleIntentCall } from './intent-calls.js';
import { awaitingReview } from './quarantine-messages.js';
import type { ResolveOptions, ResolveOutcome } from './resolution.js';
import type { SessionHandle, SessionState } from './session-registry.js';
import { splitQualifiedName } from './tool-names.js';

export type { CallerContext } from '../calls/call-runner.js';
export type { GatewayEvents } from './gateway-events.js';
export type { ResolveOutcome } from './resolution.js';

/**
 * The MCP surface shared by every session over stdio and HTTP: sessions open and close, each lists
 * its tools, and a tools/call is answered by a gateway tool, an intent-declared call or an active
 * power's tool. It builds nothing: the composition root (server/composition-root.ts) hands it
 * the parts, and its tool handlers get ports (ports.ts). The HTTP and REST surfaces, the passthrough
 * and the CLI reach the parts they need through its read-only fields and one-line delegations below;
 * the JSON-RPC handlers get theirs from the parts (rpc/rpc-ports.ts). Emits GatewayEvents.
 */
export class Gateway extends EventEmitter<GatewayEvents> {
  // Handed in, never built here: the passthrough of prompts, resources and child requests needs the
  // upstream manager, the MCP sessions the session registry and intel's read accounting; HTTP and
  // REST read the activity log (users per session, the activity list) and the trust review.
  readonly manager: GatewayParts['manager'];
  readonly activity: GatewayParts['activity'];
  readonly intel: GatewayParts['intel'];
  readonly sessions: GatewayParts['sessions'];
  readonly trust: GatewayParts['trust'];

  constructor(private readonly parts: GatewayParts) {
    super();
    this.manager = parts.manager;
    this.activity = parts.activity;
    this.intel = parts.intel;
    this.sessions = parts.sessions;
    this.trust = parts.trust;
    parts.notices.on('toolsChanged', () => this.emit('toolsChanged'));
    parts.notices.on('powerState', (change) => this.emit('powerState', change));
    parts.notices.on('toolsQuarantined', (reviews) => this.emit('toolsQuarantined', reviews));
  }

  /** Registers an MCP session (stdio: one; HTTP: one per client). Throws SessionLimitError past the cap. */
  openSession(id: string, handle: SessionHandle, expires: boolean, client?: string): SessionState {
    const state = this.parts.sessions.open(id, handle, expires, client);
    this.parts.activation.updateExposure();
    return state;
  }

  /** Frees a session's state; its powers' children are left to the idle rule. */
  closeSession(id: string): void {
    this.parts.sessions.close(id);
  }

  /** The tool list of a session (the window's without one). */
  listTools(sessionId?: string): Tool[] {
    return this.parts.activation.listTools(sessionId);
  }

  /** Answers a tools/call from any session: a gateway tool, an intent-declared call, or an active power's tool. */
  async callTool(name: string, args: Record<string, unknown>, caller: CallerContext): Promise<CallToolResult> {
    const { handlers, sessions, policy } = this.parts;
    const gatewayAnswer = GATEWAY_TOOL_NAMES.has(name) ? await handleGatewayTool(handlers, name, args, caller.sessionId) : undefined;
    if (gatewayAnswer) {
      this.parts.intel.reads.answered(caller.sessionId, gatewayAnswer);
      this.parts.manager.noteTurn();
      return gatewayAnswer;
    }
    const variant = variantOf(name);
    if (variant) return handleIntentCall(handlers, variant, args, caller);
    const state = sessions.state(caller.sessionId);
    const exposed = state.exposed.get(name);
    if (!exposed) {
      const held = splitQualifiedName(name);
      if (held && policy.isHeld(held.power, held.tool)) return errorResult(awaitingReview(`${held.power}:${held.tool}`), { code: 'awaiting_review' });
      return errorResult(unknownToolMessage(name, [...state.active]));
    }
    const tool = this.toolsOf(exposed.power).find((t) => t.name === exposed.tool);
    return this.runCall({ power: exposed.power, tool: exposed.tool, calledAs: name, args, variant: 'direct', annotations: this.annotationsOf(exposed.power, tool ?? { name: exposed.tool }) }, caller);
  }

  // The same parts for the HTTP surface, the passthrough and the CLI (JSON-RPC takes them from the parts: rpc/rpc-ports.ts).

  get settings(): Settings {
    return this.parts.settings;
  }

  powers(): PowerDefinition[] {
    return this.parts.tools.powers();
  }

  power(name: string): PowerDefinition | undefined {
    return this.parts.tools.power(name);
  }

  toolsOf(name: string): Tool[] {
    return this.parts.tools.toolsOf(name);
  }

  /** Active in the session; without one, active anywhere (the window or any session). */
  isActive(name: string, sessionId?: string): boolean {
    return this.parts.activation.isActive(name, sessionId);
  }

  /** 'disabled' when the settings disable the power: nothing of it is offered, read or started. */
  powerRefusal(name: string): 'disabled' | undefined {
    return this.parts.policy.powerRefusal(name);
  }

  activate(name: string, sessionId?: string): Promise<ExposedTool[]> {
    return this.parts.activation.activate(name, sessionId);
  }

  resolve(query: string, options: ResolveOptions = {}): Promise<ResolveOutcome> {
    return this.parts.resolution.resolve(query, options);
  }

  resolverStatus(): ResolverStatus {
    return this.parts.index.status();
  }

  discoverUnknownPowers(): void {
    this.parts.discoverUnknownPowers();
  }

  shutdown(): Promise<void> {
    return this.parts.shutdown();
  }

  /** The annotations validation trusts for a tool: the spell's, else the server's, else inferred. */
  private annotationsOf(power: string, tool: Pick<Tool, 'name' | 'description' | 'annotations'>): EffectiveAnnotations {
    return this.parts.tools.annotationsOf(power, tool);
  }

  private runCall(call: CallRequest, caller: CallerContext): Promise<CallToolResult> {
    return this.parts.calls.run(call, caller);
  }
}

function unknownToolMessage(name: string, active: string[]): string {
  if (name === 'call_tool') {
    return "Tool 'call_tool' was not found: use call_tool_read, call_tool_write or call_tool_destructive (declaring the intent), or call an active power's tool directly as '<power>__<tool>'.";
  }
  const activeText = active.length ? `Active powers: ${active.join(', ')}.` : 'No power is active.';
  return `Tool '${preview(name)}' is not available. ${activeText} Call resolve_intent to find and activate the power you need.`;
}
