import type { PassthroughPorts } from './passthrough-ports.js';

/**
 * The powers active for one MCP session and not disabled: whose prompts and resources the session
 * sees, and the only ones a prompt get, resource read or completion of it may reach (or start).
 */
export function activePowersOf(gateway: PassthroughPorts, sessionId: string): string[] {
  return gateway.ports.powers().filter((power) => gateway.ports.isActive(power.name, sessionId) && !gateway.ports.powerRefusal(power.name)).map((power) => power.name);
}

export function isActiveFor(gateway: PassthroughPorts, sessionId: string, power: string): boolean {
  return activePowersOf(gateway, sessionId).includes(power);
}
