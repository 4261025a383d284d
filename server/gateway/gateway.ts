import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Settings } from '../config/settings.js';
import { Catalog, type CatalogTool } from '../catalog/catalog.js';
import { Discovery } from '../catalog/discovery.js';
import { CallPipeline, type CallContext, type SampleFn } from '../calls/pipeline.js';
import { effectiveAnnotations, type EffectiveAnnotations } from '../calls/annotations.js';
import { variantOf } from '../calls/intent.js';
import { validateStage } from '../calls/validate-stage.js';
import { unknownHintTools } from '../hints/declared-hints.js';
import { HintEvents } from '../hints/hint-events.js';
import { hintNetwork, type HintNetwork } from '../hints/hint-network.js';
import { hintsStage } from '../hints/hints-stage.js';
import { LearnedTransitions } from '../hints/learned-transitions.js';
import { SessionContexts } from '../hints/session-context.js';
import { ActivityLog } from '../activity/activity-log.js';
import { LearnedRequests, withLearned } from '../ranking/learned-requests.js';
import { forwardStage } from '../calls/forward-stage.js';
import { recordStage } from '../calls/record-stage.js';
import { errorResult } from '../calls/results.js';
import type { PowerRegistry, RegistryChange } from '../powers/registry.js';
import type { PowerDefinition } from '../powers/types.js';
import { createResolver } from '../resolve/create-resolver.js';
import type { HybridResolver, ResolverStatus } from '../resolve/hybrid-resolver.js';
import { RecommendationLog } from '../ranking/recommendations.js';
import { UsageStats } from '../ranking/usage-stats.js';
import type { PowerScore } from '../resolve/types.js';
import type { Store } from '../store/store.js';
import type { StateChange } from '../upstream/connection.js';
import { UpstreamManager } from '../upstream/manager.js';
import { errorMessage, logger } from '../log.js';
import { exposeTool, type ExposedTool } from './exposure.js';
import { GATEWAY_TOOLS } from './gateway-tools.js';
import { handleGatewayTool } from './gateway-tool-handlers.js';
import { handleIntentCall } from './intent-calls.js';
import { powerDocument } from './power-documents.js';
import { Resolution, type ResolveOptions, type ResolveOutcome } from './resolution.js';
import { UnknownPowerError } from './unknown-power.js';
import { Intel } from '../intel/intel.js';
import { summarizeStage } from '../intel/summarize-stage.js';

const log = logger('gateway');

export interface GatewayOptions {
  registry: PowerRegistry;
  store: Store;
  settings: Settings;
  workspaceFolder?: string;
}

export type { ResolveOutcome } from './resolution.js';

export interface CallerContext {
  sessionId: string;
  signal?: AbortSignal;
  /** The client's own model, when it declared the sampling capability. */
  sample?: SampleFn;
}

/**
 * The gateway's core, shared by every MCP session over stdio and HTTP: the powers, which of them
 * are active (their tools exposed), the resolver, and the call pipeline.
 * Emits 'toolsChanged' whenever the tool list an agent sees changes, and 'powerState' (StateChange)
 * when a power's server starts, stops or crashes.
 */
export class Gateway extends EventEmitter {
  readonly manager: UpstreamManager;
  readonly catalog: Catalog;
  readonly discovery: Discovery;
  readonly activity: ActivityLog;
  /** Requests that led to successful calls: they join their power's search document. */
  readonly learned: LearnedRequests;
  readonly recommendations: RecommendationLog;
  readonly usage: UsageStats;
  readonly hints: { sessions: SessionContexts; events: HintEvents; transitions: LearnedTransitions };
  /** Summaries, artifacts, the result cache, search and token accounting (server/intel). */
  readonly intel: Intel;
  private readonly resolution: Resolution;
  private readonly resolver: HybridResolver;
  private readonly active = new Set<string>();
  private readonly knownTools = new Map<string, Tool[]>();
  private exposed = new Map<string, ExposedTool>();
  private readonly pipeline: CallPipeline;
  private resolveCache = new Map<string, PowerScore[]>();

  constructor(private readonly options: GatewayOptions) {
    super();
    const upstream = options.settings.upstream;
    this.manager = new UpstreamManager({
      callTimeoutMs: upstream.callTimeoutMs,
      startTimeoutMs: upstream.startTimeoutMs,
      restart: upstream.restart,
      idle: upstream.idle,
    });
    this.catalog = new Catalog(options.store);
    const { resolver, embedder, embeddings } = createResolver(options.settings.resolve, options.store, options.store.dataDir);
    this.resolver = resolver;
    embedder.warmUp();
    this.intel = new Intel({
      store: options.store,
      settings: () => this.options.settings.intel,
      embeddings,
      toolLists: () => ({ gateway: this.listTools(), powers: [...this.knownTools].map(([power, tools]) => ({ power, tools })) }),
    });
    this.discovery = new Discovery((power) => this.discover(power));
    this.activity = new ActivityLog(options.store);
    this.recommendations = new RecommendationLog(options.store);
    this.learned = new LearnedRequests(options.store);
    // After the answer is on its way: learning writes to the store and re-indexes.
    this.activity.on('recorded', (call) =>
      setImmediate(() => {
        try {
          if (this.options.settings.ranking.learn && this.learned.learnFromCall(call)) this.reindex();
        } catch (error) {
          log.warn(`could not learn from the call to ${call.power}:${call.tool}: ${errorMessage(error)}`);
        }
      }),
    );
    this.usage = new UsageStats(options.store, () => this.activity.version);
    this.activity.prune(options.settings.activity.retentionDays, options.settings.activity.maxEntries);
    this.hints = {
      sessions: new SessionContexts(),
      events: new HintEvents(options.store),
      transitions: new LearnedTransitions(options.store, () => this.activity.version),
    };
    this.resolution = new Resolution({
      rank: (query) => this.rank(query),
      powers: () => this.powers(),
      extensions: (name) => options.registry.extensions(name),
      settings: options.settings,
      store: options.store,
      usage: this.usage,
      recommendations: this.recommendations,
      workspaceFolder: options.workspaceFolder,
    });
    this.pipeline = new CallPipeline([
      recordStage(this.activity, () => this.options.settings.activity),
      validateStage(() => this.options.settings.intentDeclaration.strictServerValidation),
      hintsStage({
        sessions: this.hints.sessions,
        events: this.hints.events,
        transitions: this.hints.transitions,
        extensions: (power) => options.registry.extensions(power),
        tool: (power, tool) => this.toolsOf(power).find((t) => t.name === tool),
        settings: () => this.options.settings.hints,
      }),
      summarizeStage(this.intel, (power, tool) => this.toolsOf(power).find((t) => t.name === tool)),
      forwardStage(this.manager, (name) => this.power(name)),
    ]);
    for (const [power, tools] of this.catalog.all()) this.knownTools.set(power, tools.map(toTool));
    this.reindex();
    options.registry.on('change', (change: RegistryChange) => void this.onRegistryChange(change));
    this.manager.on('toolsChanged', (power: string) => void this.refreshTools(power).catch(() => undefined));
    this.manager.on('state', (change: StateChange) => this.onPowerState(change));
  }

  /** Keeps every state change of a power in the event log and passes it on ('powerState'). */
  private onPowerState(change: StateChange): void {
    if (change.state === 'stopping') return;
    try {
      this.options.store.write({
        op: 'insert',
        table: 'events',
        row: { id: randomUUID(), at: Date.now(), kind: `power.${change.state}`, power: change.power, detail: change.detail ?? null },
      });
    } catch (error) {
      log.warn(`could not record the state of '${change.power}': ${errorMessage(error)}`);
    }
    this.emit('powerState', change);
  }

  get settings(): Settings {
    return this.options.settings;
  }

  get store(): Store {
    return this.options.store;
  }

  /** Starts learning the tools of powers the catalog has never seen. */
  discoverUnknownPowers(): void {
    if (!this.options.settings.discovery.enabled) return;
    for (const power of this.powers()) {
      if (power.problems.length === 0 && this.catalog.refreshedAt(power.name) === undefined) this.discovery.enqueue(power);
    }
  }

  powers(): PowerDefinition[] {
    return this.options.registry.snapshot().powers;
  }

  power(name: string): PowerDefinition | undefined {
    return this.powers().find((power) => power.name === name);
  }

  isActive(name: string): boolean {
    return this.active.has(name);
  }

  toolsOf(name: string): Tool[] {
    return this.knownTools.get(name) ?? [];
  }

  listTools(): Tool[] {
    return [...GATEWAY_TOOLS, ...[...this.exposed.values()].map((exposed) => exposed.definition)];
  }

  /** The hint network of the given powers (default: the active ones), with learned edges and follow rates. */
  hintNetwork(powers: string[] = [...this.active]): HintNetwork {
    const calls = new Map(
      this.options.store.query<{ key: string; n: number }>("SELECT power || ':' || tool AS key, COUNT(*) AS n FROM activity GROUP BY power, tool").map((r) => [r.key, r.n]),
    );
    return hintNetwork(
      powers.flatMap((name) => (this.power(name) ? [{ name, tools: this.toolsOf(name).map((t) => t.name), extensions: this.options.registry.extensions(name) }] : [])),
      this.hints.transitions.all(),
      calls,
      this.hints.events.followRates(),
      this.options.settings.hints.minSupport,
    );
  }

  /** Tools across all powers for a query, best first, named `power:tool`. */
  rankTools(query: string): Promise<PowerScore[]> {
    return this.resolver.rankTools(query);
  }

  /** Lexical-only or hybrid, and why. */
  resolverStatus(): ResolverStatus {
    return this.resolver.status();
  }

  async rank(query: string): Promise<PowerScore[]> {
    const normalized = query.trim().toLowerCase().replace(/\s+/g, ' ');
    const key = `${this.resolver.status().mode}\u0000${normalized}`;
    let ranked = this.resolveCache.get(key);
    if (!ranked) {
      ranked = await this.resolver.rank(normalized);
      if (this.resolveCache.size > 500) this.resolveCache.clear();
      this.resolveCache.set(key, ranked);
    }
    return ranked;
  }

  async resolve(query: string, options: ResolveOptions = {}): Promise<ResolveOutcome> {
    return this.resolution.resolve(query, options);
  }

  /** Starts a power, learns its tools and exposes them. Throws with a message the agent can act on. */
  async activate(name: string, sessionId?: string): Promise<ExposedTool[]> {
    const power = this.power(name);
    if (!power) throw new UnknownPowerError(name, this.powers().map((p) => p.name));
    if (this.options.settings.powers.disabled.includes(name)) {
      throw new UnknownPowerError(name, this.powers().map((p) => p.name).filter((n) => !this.options.settings.powers.disabled.includes(n)), 'is disabled in settings (powers.disabled)');
    }
    if (sessionId) setImmediate(() => this.recommendations.markUsed(sessionId, name));
    const connection = this.manager.connection(power);
    if (this.active.has(name) && connection.state === 'active' && this.knownTools.has(name)) return this.exposedOf(name);
    connection.resetRestarts();
    this.active.add(name);
    try {
      await this.refreshTools(name);
    } catch (error) {
      this.active.delete(name);
      throw error;
    }
    return this.exposedOf(name);
  }

  private exposedOf(name: string): ExposedTool[] {
    return [...this.exposed.values()].filter((tool) => tool.power === name);
  }

  async deactivate(name: string): Promise<void> {
    if (!this.power(name)) throw new UnknownPowerError(name, this.powers().map((p) => p.name));
    const wasActive = this.active.delete(name);
    if (wasActive) this.updateExposure();
    await this.manager.get(name)?.stop('deactivated');
  }

  /** Answers a tools/call from any session: a gateway tool, an intent-declared call, or an active power's tool. */
  async callTool(name: string, args: Record<string, unknown>, caller: CallerContext): Promise<CallToolResult> {
    const gatewayAnswer = await handleGatewayTool(this, name, args, caller.sessionId);
    if (gatewayAnswer) {
      this.manager.noteTurn();
      return gatewayAnswer;
    }
    const variant = variantOf(name);
    if (variant) return handleIntentCall(this, variant, args, caller);
    const exposed = this.exposed.get(name);
    if (!exposed) return errorResult(unknownToolMessage(name, [...this.active]));
    const tool = this.toolsOf(exposed.power).find((t) => t.name === exposed.tool);
    return this.runCall({ power: exposed.power, tool: exposed.tool, calledAs: name, args, variant: 'direct', annotations: this.annotationsOf(exposed.power, tool ?? { name: exposed.tool }) }, caller);
  }

  /** Runs one call to a power's tool through the pipeline (validate -> record -> upstream). */
  runCall(call: Pick<CallContext, 'power' | 'tool' | 'calledAs' | 'args' | 'variant' | 'intent' | 'annotations' | 'proceed'>, caller: CallerContext): Promise<CallToolResult> {
    this.manager.noteTurn(call.power);
    setImmediate(() => this.recommendations.markUsed(caller.sessionId, `${call.power}:${call.tool}`));
    return this.pipeline.run({ ...call, sessionId: caller.sessionId, startedAt: Date.now(), signal: caller.signal, sample: caller.sample });
  }

  /** The annotations validation trusts for a tool: the spell's, else the server's, else inferred. */
  annotationsOf(power: string, tool: Pick<Tool, 'name' | 'description' | 'annotations'>): EffectiveAnnotations {
    const override = this.options.registry.extensions(power)?.annotations?.[tool.name];
    return effectiveAnnotations(tool, override, this.options.settings.intentDeclaration.inferAnnotations);
  }

  /** A power's tools, listing them first (which starts the power) when the catalog has never seen them. */
  async ensureTools(name: string): Promise<Tool[]> {
    if (!this.knownTools.has(name)) await this.refreshTools(name);
    return this.toolsOf(name);
  }

  async shutdown(): Promise<void> {
    await this.manager.shutdown();
    await this.intel.close();
  }

  private async refreshTools(name: string): Promise<void> {
    const power = this.power(name);
    if (!power) return;
    const tools = await this.manager.connection(power).listTools();
    const changes = this.catalog.record(name, tools);
    this.knownTools.set(name, tools);
    if (changes.length > 0) log.info(`'${name}': ${changes.length} tool change(s) recorded in the catalog`);
    for (const problem of unknownHintTools(name, this.options.registry.extensions(name), tools.map((t) => t.name))) log.warn(`${power.source.file}: ${problem}`);
    this.reindex();
    if (this.active.has(name)) this.updateExposure();
  }

  private async discover(power: PowerDefinition): Promise<void> {
    const connection = this.manager.connection(power);
    const wasRunning = connection.state === 'active';
    await this.refreshTools(power.name);
    if (!wasRunning && !this.active.has(power.name) && connection.inFlight === 0) await connection.stop('tools discovered');
  }

  private async onRegistryChange(change: RegistryChange): Promise<void> {
    for (const removed of change.removed) this.active.delete(removed.name);
    try {
      await this.manager.sync(change.snapshot.powers);
    } catch (error) {
      log.warn(`reload: ${errorMessage(error)}`);
    }
    this.reindex();
    this.updateExposure();
    for (const added of change.added) if (this.options.settings.discovery.enabled && added.problems.length === 0) this.discovery.enqueue(added);
  }

  private reindex(): void {
    const documents = this.powers().map((power) => powerDocument(power, this.toolsOf(power.name)));
    this.resolver.index(this.options.settings.ranking.learn ? withLearned(documents, this.learned.documents()) : documents);
    this.resolveCache = new Map();
  }

  /** Recomputes the exposed tools and tells every session when the list changed. */
  /**
   * Exposure: in 'direct' mode the active powers' tools join the agent's list, in activation order,
   * up to the cap (editors cap the tools per request); in 'call-tools' mode none do and the agent
   * reaches them through call_tool_*. Blocked tools are never exposed.
   */
  private updateExposure(): void {
    const next = new Map<string, ExposedTool>();
    const { mode, maxTools } = this.options.settings.exposure;
    const blocked = new Set(this.options.settings.tools.blocked);
    for (const name of mode === 'direct' ? this.active : []) {
      const power = this.power(name);
      if (!power) continue;
      for (const tool of this.toolsOf(name)) {
        if (next.size >= maxTools || blocked.has(`${name}:${tool.name}`)) continue;
        const exposed = exposeTool(power, tool, this.annotationsOf(name, tool));
        next.set(exposed.definition.name, exposed);
      }
    }
    const before = JSON.stringify([...this.exposed.values()].map((e) => e.definition));
    this.exposed = next;
    if (JSON.stringify([...next.values()].map((e) => e.definition)) !== before) this.emit('toolsChanged');
  }
}

function toTool(tool: CatalogTool): Tool {
  return { name: tool.name, description: tool.description, inputSchema: tool.inputSchema, annotations: tool.annotations };
}

function unknownToolMessage(name: string, active: string[]): string {
  if (name === 'call_tool') {
    return "Tool 'call_tool' was not found: use call_tool_read, call_tool_write or call_tool_destructive (declaring the intent), or call an active power's tool directly as '<power>__<tool>'.";
  }
  const activeText = active.length ? `Active powers: ${active.join(', ')}.` : 'No power is active.';
  return `Tool '${name}' is not available. ${activeText} Call resolve_intent to find and activate the power you need.`;
}
