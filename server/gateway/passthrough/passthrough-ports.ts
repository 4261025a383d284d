import type { Gateway } from '../gateway.js';
import type { GatewayPorts } from '../ports.js';

/**
 * What the MCP passthrough (prompts, resources, completions, the children's requests and
 * notifications) uses of the gateway: the powers, which are active in a session and which are
 * disabled, the upstream connections and the gateway's events.
 */
export type PassthroughPorts = Pick<Gateway, 'on' | 'off'> & {
  ports: Pick<GatewayPorts, 'manager' | 'power' | 'powers' | 'isActive' | 'powerRefusal'>;
};

/**
 * The powers active for one MCP session and not disabled: whose prompts and resources the session
 * sees, and the only ones a prompt get, resource read or completion of it may reach (or start).
 */
export function activePowersOf(gateway: PassthroughPorts, sessionId: string): string[] {
  return gateway.ports
    .powers()
    .filter((power) => gateway.ports.isActive(power.name, sessionId) && !gateway.ports.powerRefusal(power.name))
    .map((power) => power.name);
}

export function isActiveFor(gateway: PassthroughPorts, sessionId: string, power: string): boolean {
  return activePowersOf(gateway, sessionId).includes(power);
}
