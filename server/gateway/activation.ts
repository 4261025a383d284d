import type { Tool } from '../util/mcp-types.js';
import type { PowerTools } from '../catalog/power-tools.js';
import type { Settings } from '../config/settings.js';
import type { PowerRegistry } from '../powers/registry.js';
import type { ToolPolicy } from '../trust/tool-policy.js';
import { preview } from '../../shared/preview.js';
import type { UpstreamManager } from '../upstream/manager.js';
import { exposeTool, type ExposedTool } from './exposure.js';
import { GATEWAY_TOOLS } from './gateway-tools.js';
import type { SessionRegistry, SessionState } from './sessions/session-registry.js';

/** A power name that names no configured power (or a disabled one, which is answered alike): the agent is told the known ones. */
export class UnknownPowerError extends Error {
  constructor(
    readonly requested: string,
    readonly known: string[],
  ) {
    super(
      `Unknown power '${preview(requested)}'. Known powers: ${known.length ? known.join(', ') : '(none configured)'}. ` +
        'Use one of these names, or call resolve_intent to find the right one.',
    );
    this.name = 'UnknownPowerError';
  }
}

export interface ActivationDeps {
  sessions: SessionRegistry;
  tools: PowerTools;
  registry: Pick<PowerRegistry, 'extensions'>;
  manager: Pick<UpstreamManager, 'connection' | 'get'>;
  policy: Pick<ToolPolicy, 'powerRefusal' | 'exposable'>;
  settings: Pick<Settings, 'exposure'>;
  /** A session's use of a power credits the recommendation that named it (after the answer). */
  markUsed: (sessionId: string, name: string) => void;
  /** Some session's tool list changed. */
  toolsChanged: () => void;
}

/**
 * Which powers are active where, and so which tools each session lists: activation starts a
 * power and learns its tools, deactivation stops its child when no one uses it any more, and
 * every change recomputes the sessions' tool lists (exposure).
 */
export class Activation {
  constructor(private readonly deps: ActivationDeps) {}

  /** Active in the session; without one, active anywhere (the window or any session). */
  isActive(name: string, sessionId?: string): boolean {
    return sessionId ? this.deps.sessions.state(sessionId).active.has(name) : this.deps.sessions.users(name) > 0;
  }

  /** The tool list of a session (the window's without one). */
  listTools(sessionId?: string): Tool[] {
    const state = sessionId ? this.deps.sessions.state(sessionId) : this.deps.sessions.window;
    return [...GATEWAY_TOOLS, ...[...state.exposed.values()].map((exposed) => exposed.definition)];
  }

  /**
   * Starts a power, learns its tools and exposes them in the session (without one: in the window,
   * every current session and the new ones). Throws with a message the agent can act on.
   */
  async activate(name: string, sessionId?: string): Promise<ExposedTool[]> {
    const { tools, policy, manager } = this.deps;
    const power = tools.power(name);
    // A disabled power is answered as no power at all: no answer names it.
    if (!power || policy.powerRefusal(name)) throw new UnknownPowerError(name, this.offered());
    if (sessionId) this.deps.markUsed(sessionId, name);
    const connection = manager.connection(power);
    const targets = this.targets(sessionId);
    if (targets.every((state) => state.active.has(name)) && connection.state === 'active' && tools.listed(name))
      return this.exposedOf(name, sessionId);
    connection.resetRestarts();
    const added = targets.filter((state) => !state.active.has(name));
    for (const state of added) state.active.add(name);
    try {
      await tools.refresh(name, sessionId ? { sessionId } : undefined);
    } catch (error) {
      for (const state of added) state.active.delete(name);
      throw error;
    }
    this.updateExposure();
    return this.exposedOf(name, sessionId);
  }

  /** Removes a power from the session (without one: from the window and every session); the child stops when no one uses it. */
  async deactivate(name: string, sessionId?: string): Promise<void> {
    const { tools, sessions, manager } = this.deps;
    if (!tools.power(name)) throw new UnknownPowerError(name, this.offered());
    let removed = false;
    for (const state of this.targets(sessionId)) removed = state.active.delete(name) || removed;
    if (removed) this.updateExposure();
    if (sessions.users(name) === 0) await manager.get(name)?.stop('deactivated');
  }

  /** The powers an answer may name: the configured ones the settings do not disable. */
  private offered(): string[] {
    return this.deps.tools
      .powers()
      .map((p) => p.name)
      .filter((name) => !this.deps.policy.powerRefusal(name));
  }

  /** Forgets removed powers in every session (a reload). */
  forget(names: string[]): void {
    for (const name of names) for (const state of this.deps.sessions.all()) state.active.delete(name);
  }

  /** Recomputes every session's tool list and tells each session whose list changed. */
  updateExposure(): void {
    let changed = false;
    for (const state of this.deps.sessions.all()) {
      const next = this.exposureFor(state.active);
      if (sameDefinitions(next, state.exposed)) continue;
      state.exposed = next;
      changed = true;
      state.handle?.toolsChanged();
    }
    if (changed) this.deps.toolsChanged();
  }

  private targets(sessionId: string | undefined): SessionState[] {
    return sessionId ? [this.deps.sessions.state(sessionId)] : this.deps.sessions.all();
  }

  private exposedOf(name: string, sessionId?: string): ExposedTool[] {
    const state = sessionId ? this.deps.sessions.state(sessionId) : this.deps.sessions.window;
    return [...state.exposed.values()].filter((tool) => tool.power === name);
  }

  /**
   * Exposure: in 'direct' mode the active powers' tools join the agent's list, in activation order,
   * up to the cap (editors cap the tools per request); in 'call-tools' mode none do and the agent
   * reaches them through call_tool_*. Tools the policy refuses (blocked, held for review) never join.
   */
  private exposureFor(active: Set<string>): Map<string, ExposedTool> {
    const next = new Map<string, ExposedTool>();
    const { mode, maxTools } = this.deps.settings.exposure;
    const { tools, policy } = this.deps;
    for (const name of mode === 'direct' ? active : []) {
      const power = tools.power(name);
      if (!power) continue;
      for (const tool of tools.toolsOf(name)) {
        if (next.size >= maxTools || !policy.exposable(name, tool.name)) continue;
        const exposed = exposeTool(power, tool, tools.annotationsOf(name, tool), this.deps.registry.extensions(name));
        next.set(exposed.definition.name, exposed);
      }
    }
    return next;
  }
}

function sameDefinitions(a: Map<string, ExposedTool>, b: Map<string, ExposedTool>): boolean {
  return (
    JSON.stringify([...a.values()].map((e) => e.definition)) ===
    JSON.stringify([...b.values()].map((e) => e.definition))
  );
}
