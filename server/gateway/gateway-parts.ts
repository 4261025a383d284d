/**
 * Everything a gateway is made of: what `composeGateway` (composition-root.ts) builds and wires,
 * and what `Gateway`, the JSON-RPC ports and the CLI read. Declared here, in the layer that uses it,
 * so that nothing in gateway/ imports the composition root above it. The parts the ports hand out
 * (settings, store, upstream manager, activity log, usage, recommendations, hints, intel, steering,
 * sessions, trust, policy) are reached through `ports`.
 */
import type { EventEmitter } from 'node:events';
import type { EventLog } from '../activity/event-log.js';
import type { CallRunner } from '../calls/call-runner.js';
import type { Catalog } from '../catalog/catalog.js';
import type { Discovery } from '../catalog/discovery.js';
import type { PowerTools } from '../catalog/power-tools.js';
import type { PowerRegistry } from '../powers/registry.js';
import type { LearnedRequests } from '../ranking/learned-requests.js';
import type { PowerIndex } from '../resolve/power-index.js';
import type { Activation } from './activation.js';
import type { GatewayEvents, GatewayPorts } from './ports.js';
import type { Resolution } from './resolution.js';

export interface GatewayParts {
  registry: PowerRegistry;
  catalog: Catalog;
  discovery: Discovery;
  /** The powers and their tools as last listed. */
  tools: PowerTools;
  /** The resolver's index of the powers, and its rankings. */
  index: PowerIndex;
  resolution: Resolution;
  activation: Activation;
  calls: CallRunner;
  events: EventLog;
  /** Requests that led to successful calls: they join their power's search document. */
  learned: LearnedRequests;
  /** Every operation on the parts, listed once: the tool handlers, `Gateway` and the JSON-RPC handlers take it. */
  ports: GatewayPorts;
  /** What the gateway tells its listeners; the Gateway re-emits these. */
  notices: EventEmitter<GatewayEvents>;
  /**
   * Runs deferred writes, ends the sessions, the children and the intel workers, then writes the activity
   * log's last calls. The store stays open.
   */
  shutdown(): Promise<void>;
}
