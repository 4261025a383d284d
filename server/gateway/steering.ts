/**
 * Steering reaches the agent once: with an activation (every activate_power / activated
 * resolve_intent answer carries it), and in retrieve_tools for a power this session has not been
 * told about yet. This remembers, per MCP session, which powers' guidance it has been given.
 */
import type { PowerDefinition } from '../powers/types.js';

const MAX_SESSIONS = 1_000;

export class SteeringLog {
  private readonly sessions = new Map<string, Set<string>>();

  /** Records that the session was given this item (a power's guidance, or another once-per-session text). */
  markGiven(sessionId: string, key: string): void {
    let given = this.sessions.get(sessionId);
    if (!given) {
      if (this.sessions.size >= MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
      given = new Set();
      this.sessions.set(sessionId, given);
    }
    given.add(key);
  }

  given(sessionId: string, key: string): boolean {
    return this.sessions.get(sessionId)?.has(key) === true;
  }

  /** The guidance of the powers not yet given to the session (and marks them given). */
  takeNew(sessionId: string, powers: PowerDefinition[]): Record<string, string> {
    const out: Record<string, string> = {};
    for (const power of powers) {
      const text = power.steering.trim();
      if (!text || this.given(sessionId, power.name)) continue;
      out[power.name] = text;
      this.markGiven(sessionId, power.name);
    }
    return out;
  }
}
