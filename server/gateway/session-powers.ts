import type { Gateway } from './gateway.js';

/**
 * The powers active for one MCP session: whose prompts and resources the session sees. The one
 * place that asks the gateway, so that per-session activation changes only this function.
 */
export function activePowersOf(gateway: Gateway, sessionId: string): string[] {
  void sessionId;
  return gateway.powers().filter((power) => gateway.isActive(power.name)).map((power) => power.name);
}

export function isActiveFor(gateway: Gateway, sessionId: string, power: string): boolean {
  return activePowersOf(gateway, sessionId).includes(power);
}
