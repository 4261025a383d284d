/**
 * The small interfaces the gateway's tool handlers are given, instead of the whole gateway: each
 * handler names the ports it uses, and the composition root (server/composition-root.ts) hands in
 * the objects that implement them.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { EffectiveAnnotations } from '../calls/annotations.js';
import type { CallerContext, CallRequest } from '../calls/call-runner.js';
import type { Settings } from '../config/settings.js';
import type { Intel } from '../intel/intel.js';
import type { PowerDefinition } from '../powers/types.js';
import type { RankingWeights } from '../ranking/learned-ranking.js';
import type { RecommendationLog } from '../ranking/recommendations.js';
import type { UsageStats } from '../ranking/usage-stats.js';
import type { ResolverStatus } from '../resolve/hybrid-resolver.js';
import type { PowerScore } from '../resolve/types.js';
import type { ToolPolicy } from '../trust/tool-policy.js';
import type { CallScope } from '../upstream/client-features.js';
import type { ExposedTool } from './exposure.js';
import type { ResolveOptions, ResolveOutcome } from './resolution.js';
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
  policy: Pick<ToolPolicy, 'settingsRefusal' | 'isHeld' | 'held' | 'exposable'>;
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
