import type { Gateway } from './gateway.js';

/**
 * The powers active for one MCP session: whose prompts and resources the session sees.
 */
export function activePowersOf(gateway: Gateway, sessionId: string): string[] {
  return gateway.powers().filter((power) => gateway.isActive(power.name, sessionId)).map((power) => power.name);
}

export function isActiveFor(gateway: Gateway, sessionId: string, power: string): boolean {
  return activePowersOf(gateway, sessionId).includes(power);
}
