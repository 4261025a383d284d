/**
 * Everything a gateway is made of: what `composeGateway` (composition-root.ts) builds and wires,
 * and what `Gateway`, the JSON-RPC ports and the CLI read. Declared here, in the layer that uses it,
 * so that nothing in gateway/ imports the composition root above it.
 */
import type { EventEmitter } from 'node:events';
import type { ActivityLog } from '../activity/activity-log.js';
import type { EventLog } from '../activity/event-log.js';
import type { CallRunner } from '../calls/call-runner.js';
import type { Catalog } from '../catalog/catalog.js';
import type { Discovery } from '../catalog/discovery.js';
import type { PowerTools } from '../catalog/power-tools.js';
import type { Settings } from '../config/settings.js';
import type { HintEvents } from '../hints/hint-events.js';
import type { HintNetwork } from '../hints/hint-network.js';
import type { LearnedTransitions } from '../hints/learned-transitions.js';
import type { SessionContexts } from '../hints/session-context.js';
import type { Intel } from '../intel/intel.js';
import type { PowerRegistry } from '../powers/registry.js';
import type { LearnedRequests } from '../ranking/learned-requests.js';
import type { RecommendationLog } from '../ranking/recommendations.js';
import type { UsageStats } from '../ranking/usage-stats.js';
import type { PowerIndex } from '../resolve/power-index.js';
import type { Store } from '../store/store.js';
import type { ToolPolicy } from '../trust/tool-policy.js';
import type { ToolTrust } from '../trust/tool-trust.js';
import type { UpstreamManager } from '../upstream/manager.js';
import type { Activation } from './activation.js';
import type { GatewayEvents } from './gateway-events.js';
import type { GatewayToolPorts } from './gateway-tool-handlers.js';
import type { IntentCallPorts } from './intent-calls.js';
import type { Resolution } from './resolution.js';
import type { SessionRegistry } from './session-registry.js';
import type { SteeringLog } from './steering.js';

export interface GatewayParts {
  settings: Settings;
  store: Store;
  registry: PowerRegistry;
  manager: UpstreamManager;
  catalog: Catalog;
  discovery: Discovery;
  /** The powers and their tools as last listed. */
  tools: PowerTools;
  /** The resolver's index of the powers, and its rankings. */
  index: PowerIndex;
  resolution: Resolution;
  activation: Activation;
  calls: CallRunner;
  activity: ActivityLog;
  events: EventLog;
  /** Requests that led to successful calls: they join their power's search document. */
  learned: LearnedRequests;
  recommendations: RecommendationLog;
  usage: UsageStats;
  hints: { sessions: SessionContexts; events: HintEvents; transitions: LearnedTransitions };
  /** Summaries, artifacts, the result cache, search and token accounting (server/intel). */
  intel: Intel;
  /** Which powers' guidance each session has been given (steering comes once, not with every tool). */
  steering: SteeringLog;
  /** Each MCP session's active powers and tool list. */
  sessions: SessionRegistry;
  /** Pinned tools and the quarantine of changed ones. */
  trust: ToolTrust;
  /** May a power or tool be resolved, offered, exposed or called. */
  policy: ToolPolicy;
  /** The ports the gateway's tool handlers use. */
  handlers: GatewayToolPorts & IntentCallPorts;
  /** What the gateway tells its listeners; the Gateway re-emits these. */
  notices: EventEmitter<GatewayEvents>;
  /** The hint network of the given powers (default: the active ones), with learned edges and follow rates. */
  hintNetwork(powers?: string[]): Promise<HintNetwork>;
  /** Starts learning the tools of powers the catalog has never seen. */
  discoverUnknownPowers(): void;
  /** Runs deferred writes, ends the sessions, the children and the intel workers, then writes the activity log's last calls. The store stays open. */
  shutdown(): Promise<void>;
}
