/**
 * What the JSON-RPC handlers use of a runtime: the ports the composition root built
 * (gateway/ports.ts `GatewayPorts`), the same object the gateway's tool handlers use, and the
 * gateway's relay of its notices. Each rpc module names its slice (InsightPorts, LiveUpdatePorts,
 * PowerInfoPorts, ReviewPorts), and the requests answered in rpc-server.ts itself add activation,
 * resolution and the VS Code language model.
 */
import type { EventEmitter } from 'node:events';
import type { GatewayEvents, GatewayPorts } from '../gateway/ports.js';
import type { Settings } from '../config/settings.js';
import type { Intel } from '../intel/intel.js';
import type { Runtime } from '../runtime.js';
import type { ToolTrust } from '../trust/tool-trust.js';
import type { LaunchApprovals } from '../trust/launch-approvals.js';
import type { InsightPorts } from './insight-requests.js';
import type { LiveUpdatePorts } from './live-updates.js';
import type { PowerInfoPorts } from './payloads.js';
import type { ReviewPorts } from './tool-review-requests.js';

export type RpcPorts = InsightPorts &
  LiveUpdatePorts &
  PowerInfoPorts &
  ReviewPorts &
  Pick<GatewayPorts, 'power' | 'activate' | 'deactivate' | 'resolve' | 'resolverStatus' | 'discoverUnknownPowers'> & {
    /** The thresholds a resolve answer reports. */
    settings: Pick<Settings, 'resolve'>;
    intel: Pick<Intel, 'setLanguageModel'>;
    /** Its `change` event: a review was decided or a tool was held. */
    trust: Pick<ToolTrust, 'on' | 'off'>;
    /** Its `change` event: a launch was approved (here or by the CLI). */
    launches: Pick<LaunchApprovals, 'on' | 'off' | 'approve' | 'waiting'>;
    gatewayEvents: Pick<EventEmitter<GatewayEvents>, 'on' | 'off'>;
  };

const built = new WeakMap<Runtime, RpcPorts>();

/** The ports of a runtime (one object per runtime). */
export function rpcPorts(runtime: Runtime): RpcPorts {
  const known = built.get(runtime);
  if (known) return known;
  // The gateway relays the composition root's notices; listening on it keeps the listeners' order as it was.
  const ports: RpcPorts = { ...runtime.parts.ports, gatewayEvents: runtime.gateway };
  built.set(runtime, ports);
  return ports;
}
