import type { PassthroughPorts } from './passthrough-ports.js';

/**
 * The powers active for one MCP session: whose prompts and resources the session sees.
 */
export function activePowersOf(gateway: PassthroughPorts, sessionId: string): string[] {
  return gateway.powers().filter((power) => gateway.isActive(power.name, sessionId)).map((power) => power.name);
}

export function isActiveFor(gateway: PassthroughPorts, sessionId: string, power: string): boolean {
  return activePowersOf(gateway, sessionId).includes(power);
}
