/**
 * Steering reaches the agent once per session: with the first activation of the power (an
 * activate_power or activated resolve_intent answer), or in retrieve_tools, whichever comes first. This
 * remembers, per MCP session, which powers' guidance it has been given, as it read then (an edited steering
 * is new again).
 */
import type { PowerDefinition } from '../powers/types.js';
import { shortHash } from '../../shared/hash.js';
import { Lru } from '../util/lru.js';

/** Sessions remembered; past this many, the least recently used is told again. */
const MAX_SESSIONS = 1_000;

export class SteeringLog {
  private readonly sessions = new Lru<string, Set<string>>(MAX_SESSIONS);

  /** Records that the session was given this item (a power's guidance, or another once-per-session text). */
  markGiven(sessionId: string, key: string): void {
    let given = this.sessions.get(sessionId);
    if (!given) this.sessions.set(sessionId, (given = new Set()));
    given.add(key);
  }

  /** Every item the session was given. */
  givenTo(sessionId: string): string[] {
    return [...(this.sessions.get(sessionId) ?? [])];
  }

  given(sessionId: string, key: string): boolean {
    return this.sessions.get(sessionId)?.has(key) === true;
  }

  /** The key of a power's guidance as it reads now: an edited steering is new to every session. */
  static guidanceKey(power: Pick<PowerDefinition, 'name' | 'steering'>): string {
    return `${power.name}#${shortHash(power.steering.trim(), 8)}`;
  }
}
