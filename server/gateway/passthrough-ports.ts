import type { Gateway } from './gateway.js';
import type { GatewayPorts } from './ports.js';

/**
 * What the MCP passthrough (prompts, resources, completions, the children's requests and
 * notifications) uses of the gateway: the powers, which are active in a session and which are
 * disabled, the upstream connections and the gateway's events.
 */
export type PassthroughPorts = Pick<Gateway, 'on' | 'off'> & { ports: Pick<GatewayPorts, 'manager' | 'power' | 'powers' | 'isActive' | 'powerRefusal'> };
