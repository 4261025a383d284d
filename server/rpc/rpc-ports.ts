/**
 * What the JSON-RPC handlers use of a runtime, taken from the parts the composition root built
 * (server/composition-root.ts), not from Gateway's fields: each rpc module names its slice
 * (InsightPorts, LiveUpdatePorts, PowerInfoPorts, ReviewPorts), and the requests answered in
 * rpc-server.ts itself add activation, resolution and the VS Code language model.
 */
import type { EventEmitter } from 'node:events';
import type { ExposedTool } from '../gateway/exposure.js';
import type { GatewayEvents } from '../gateway/gateway-events.js';
import type { ResolveOptions, ResolveOutcome } from '../gateway/resolution.js';
import type { Settings } from '../config/settings.js';
import type { Intel } from '../intel/intel.js';
import type { ResolverStatus } from '../resolve/hybrid-resolver.js';
import type { Runtime } from '../runtime.js';
import type { ToolTrust } from '../trust/tool-trust.js';
import type { InsightPorts } from './insight-requests.js';
import type { LiveUpdatePorts } from './live-updates.js';
import type { PowerInfoPorts } from './payloads.js';
import type { ReviewPorts } from './tool-review-requests.js';

export type RpcPorts = InsightPorts &
  LiveUpdatePorts &
  PowerInfoPorts &
  ReviewPorts & {
    activate(name: string): Promise<ExposedTool[]>;
    deactivate(name: string): Promise<void>;
    resolve(query: string, options: ResolveOptions): Promise<ResolveOutcome>;
    resolverStatus(): ResolverStatus;
    discoverUnknownPowers(): void;
    /** The thresholds a resolve answer reports. */
    settings: Pick<Settings, 'resolve'>;
    intel: Pick<Intel, 'setLanguageModel'>;
    /** Its `change` event: a review was decided or a tool was held. */
    trust: Pick<ToolTrust, 'on' | 'off'>;
    gatewayEvents: Pick<EventEmitter<GatewayEvents>, 'on' | 'off'>;
  };

const built = new WeakMap<Runtime, RpcPorts>();

/** The ports of a runtime (one object per runtime). */
export function rpcPorts(runtime: Runtime): RpcPorts {
  const known = built.get(runtime);
  if (known) return known;
  const { parts, gateway } = runtime;
  const ports: RpcPorts = {
    settings: parts.settings,
    store: parts.store,
    manager: parts.manager,
    activity: parts.activity,
    recommendations: parts.recommendations,
    hints: parts.hints,
    intel: parts.intel,
    trust: parts.trust,
    policy: parts.policy,
    // The gateway relays the composition root's notices; listening on it keeps the listeners' order as it was.
    gatewayEvents: gateway,
    powers: () => parts.tools.powers(),
    toolsOf: (name) => parts.tools.toolsOf(name),
    isActive: (name) => parts.activation.isActive(name),
    hintNetwork: (powers) => parts.hintNetwork(powers),
    activate: (name) => parts.activation.activate(name),
    deactivate: (name) => parts.activation.deactivate(name),
    resolve: (query, options) => parts.resolution.resolve(query, options),
    resolverStatus: () => parts.index.status(),
    discoverUnknownPowers: () => parts.discoverUnknownPowers(),
  };
  built.set(runtime, ports);
  return ports;
}
