/**
 * The small interfaces the gateway's tool handlers are given, instead of the whole gateway: each
 * handler names the ports it uses. `GatewayPorts` lists every operation once; the composition root
 * (server/composition-root.ts) builds the one object that implements it, and the tool handlers,
 * `Gateway` and the JSON-RPC handlers (rpc/rpc-ports.ts) each take it, or a Pick of it.
 */
import type { CallToolResult, Tool } from '../util/mcp-types.js';
import type { EffectiveAnnotations } from '../calls/annotations.js';
import type { CallerContext, CallRequest } from '../calls/call-runner.js';
import type { ActivityLog } from '../activity/activity-log.js';
import type { Settings } from '../config/settings.js';
import type { HintEvents } from '../hints/hint-events.js';
import type { HintNetwork } from '../hints/hint-network.js';
import type { LearnedTransitions } from '../hints/learned-transitions.js';
import type { SessionContexts } from '../hints/session-context.js';
import type { Intel } from '../intel/intel.js';
import type { PowerDefinition } from '../powers/types.js';
import type { RankingWeights } from '../ranking/learned-ranking.js';
import type { RecommendationLog } from '../ranking/recommendations.js';
import type { UsageStats } from '../ranking/usage-stats.js';
import type { ResolverStatus } from '../resolve/hybrid-resolver.js';
import type { PowerScore } from '../resolve/types.js';
import type { Store } from '../store/store.js';
import type { LaunchApprovals } from '../trust/launch-approvals.js';
import type { ToolPolicy } from '../trust/tool-policy.js';
import type { Review } from '../trust/pins.js';
import type { ToolTrust } from '../trust/tool-trust.js';
import type { ReadConfirmations } from '../trust/read-confirmations.js';
import type { ConfirmOutcome, ReadCandidate, ReadTarget } from '../catalog/read-candidates.js';
import type { CallScope } from '../upstream/client-features.js';
import type { PowerStateChange } from '../../protocol/records.js';
import type { UpstreamManager } from '../upstream/manager.js';
import type { ExposedTool } from './exposure.js';
import type { ResolveOptions, ResolveOutcome } from './resolution.js';
import type { SessionRegistry } from './sessions/session-registry.js';
import type { SteeringLog } from './steering.js';

export type { CallerContext, CallRequest } from '../calls/call-runner.js';

/** The configured powers. */
export interface PowerLookup {
  powers(): PowerDefinition[];
  power(name: string): PowerDefinition | undefined;
}

/** A power's tools as last listed, and the annotations validation trusts for each. */
export interface ToolLookup {
  toolsOf(power: string): Tool[];
  annotationsOf(power: string, tool: Pick<Tool, 'name' | 'description' | 'annotations'>): EffectiveAnnotations;
}

/** A power's tools, listing them first (which starts the power, for the scope's session) when they were never seen. */
export interface EnsureTools {
  ensureTools(power: string, scope?: CallScope): Promise<Tool[]>;
}

/** From a request to powers: the tier and its candidates. */
export interface Resolve {
  resolve(query: string, options?: ResolveOptions): Promise<ResolveOutcome>;
  resolverStatus(): ResolverStatus;
}

/** From a request to tools across every power, named `power:tool`. */
export interface RankTools {
  rankTools(query: string): Promise<PowerScore[]>;
}

/** Starts a power and exposes its tools in a session, or takes it back. */
export interface Activate {
  activate(name: string, sessionId?: string): Promise<ExposedTool[]>;
  deactivate(name: string, sessionId?: string): Promise<void>;
}

/** Runs one call to a power's tool through the call pipeline. */
export interface CallTool {
  runCall(call: CallRequest, caller: CallerContext): Promise<CallToolResult>;
}

/** read_artifact, get_artifact_context, semantic_search (server/intel/tools). */
export interface ReadArtifacts {
  intel: Intel;
}

/** May a power or tool be offered, exposed or called (server/trust/tool-policy.ts). */
export interface PolicyPort {
  policy: Pick<ToolPolicy, 'powerRefusal' | 'settingsRefusal' | 'isHeld' | 'held' | 'exposable'>;
}

/** Which powers' guidance (and the usage instructions) each session has been given. */
export interface SteeringPort {
  steering: SteeringLog;
}

/** What retrieve_tools ranks with and remembers. */
export interface RetrieveRanking {
  usage: Pick<UsageStats, 'forTools'>;
  recommendations: Pick<RecommendationLog, 'record'>;
  weights: () => RankingWeights;
}

export interface SettingsPort<K extends keyof Settings> {
  settings: Pick<Settings, K>;
}

/** The hints' session contexts, events and learned transitions. */
export interface GatewayHints {
  sessions: SessionContexts;
  events: HintEvents;
  transitions: LearnedTransitions;
}

/** Every operation on a gateway's parts, and the parts its surfaces read: built once by the composition root. */
export interface GatewayPorts
  extends
    PowerLookup,
    ToolLookup,
    EnsureTools,
    Resolve,
    RankTools,
    Activate,
    CallTool,
    SteeringPort,
    RetrieveRanking,
    SettingsPort<keyof Settings> {
  /** Active in the session; without one, active anywhere (the window or any session). */
  isActive(name: string, sessionId?: string): boolean;
  /** 'disabled' when the settings disable the power: nothing of it is offered, read or started. */
  powerRefusal(name: string): 'disabled' | undefined;
  /** The hint network of the given powers (default: the active ones), with learned edges and follow rates. */
  hintNetwork(powers?: string[]): Promise<HintNetwork>;
  /** Starts learning the tools of powers the catalog has never seen. */
  discoverUnknownPowers(): void;
  settings: Settings;
  store: Store;
  manager: UpstreamManager;
  activity: ActivityLog;
  usage: UsageStats;
  recommendations: RecommendationLog;
  hints: GatewayHints;
  /** Summaries, artifacts, the result cache, search and token accounting (server/intel). */
  intel: Intel;
  /** Each MCP session's active powers and tool list. */
  sessions: SessionRegistry;
  /** Pinned tools and the quarantine of changed ones. */
  trust: ToolTrust;
  /** The user's confirmations that a tool only reads: decided in the editor, the CLI or over REST by the admin, never through MCP. */
  reads: ReadConfirmations;
  /** The tools Grimoire believes only read that no annotation declares, and where the user's word stands. */
  readCandidates(): ReadCandidate[];
  confirmReads(targets: readonly ReadTarget[]): ConfirmOutcome;
  /** May a power or tool be resolved, offered, exposed or called. */
  policy: ToolPolicy;
  /** Which servers from the workspace or an imported config wait for the user's approval to run. */
  launches: LaunchApprovals;
}

/** What the gateway tells its listeners (the JSON-RPC server, live views, list_changed notifications). */
export type GatewayEvents = {
  /** Some session's tool list changed. */
  toolsChanged: [];
  /** A power's tools were listed (at discovery, a start or list_changed): what the token report counts changed. */
  powerListed: [power: string];
  /** The embedding model is ready or known to be unavailable: how requests are matched changed. */
  matchingChanged: [];
  /** A power's server started, stopped or crashed (never 'stopping'). */
  powerState: [PowerStateChange];
  /** Tools were held for the user's review. */
  toolsQuarantined: [Review[]];
};
