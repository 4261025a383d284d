import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Settings } from '../config/settings.js';
import { asTool, Catalog } from '../catalog/catalog.js';
import { Discovery } from '../catalog/discovery.js';
import { CallPipeline, type CallContext, type SampleFn } from '../calls/pipeline.js';
import { effectiveAnnotations, type EffectiveAnnotations } from '../calls/annotations.js';
import { variantOf } from '../calls/intent.js';
import { validateStage } from '../calls/validate-stage.js';
import { unknownHintTools } from '../hints/declared-hints.js';
import { HintEvents } from '../hints/hint-events.js';
import type { HintNetwork } from '../hints/hint-network.js';
import { hintNetworkReport } from '../hints/hint-network-report.js';
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
import { preview } from '../util/preview.js';
import { DeferredWork } from '../util/deferred-work.js';
import { SteeringLog } from './steering.js';
import { Intel } from '../intel/intel.js';
import { summarizeStage } from '../intel/summarize-stage.js';
import { newToolsPolicy } from '../trust/quarantine-policy.js';
import type { Review } from '../trust/pins.js';
import { ToolTrust } from '../trust/tool-trust.js';
import { maskSecrets } from '../util/secrets.js';
import { SessionRegistry, type SessionHandle, type SessionState } from './session-registry.js';
import { awaitingReview } from './quarantine-messages.js';
import { splitQualifiedName } from './tool-names.js';

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
 * The gateway's core, shared by every MCP session over stdio and HTTP: the powers, the resolver,
 * the call pipeline and the children (one per power, shared). Which powers are active, and so which
 * tools are listed, is each session's own (`sessions`); the window's (no session id) apply to all.
 * Emits 'toolsChanged' whenever some tool list changed, 'powerState' (StateChange) when a power's
 * server starts, stops or crashes, and 'toolsQuarantined' (Review[]) when tools are held for review.
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
  /** Which powers' guidance each session has been given (steering comes once, not with every tool). */
  readonly steering = new SteeringLog();
  private readonly resolution: Resolution;
  private readonly resolver: HybridResolver;
  /** Each MCP session's active powers and tool list. */
  readonly sessions: SessionRegistry;
  /** Pinned tools and the quarantine of changed ones. */
  readonly trust: ToolTrust;
  private readonly knownTools = new Map<string, Tool[]>();
  private readonly listing = new Map<string, Promise<void>>();
  private readonly pipeline: CallPipeline;
  private resolveCache = new Map<string, PowerScore[]>();
  private readonly deferred = new DeferredWork((error) => log.warn(`a deferred write failed: ${errorMessage(error)}`));

  constructor(private readonly options: GatewayOptions) {
    super();
    const upstream = options.settings.upstream;
    this.manager = new UpstreamManager({
      callTimeoutMs: upstream.callTimeoutMs,
      startTimeoutMs: upstream.startTimeoutMs,
      restart: upstream.restart,
      idle: upstream.idle,
      maxMessageBytes: Math.round(upstream.maxResultMB * 1024 * 1024),
    });
    this.catalog = new Catalog(options.store);
    this.sessions = new SessionRegistry(() => this.options.settings.sessions);
    this.trust = new ToolTrust(options.store);
    this.trust.on('change', () => this.updateExposure());
    this.trust.on('quarantined', (reviews) => this.onQuarantined(reviews));
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
          if (this.options.settings.ranking.learn && this.recommendations.knows(call.session) && this.learned.learnFromCall(call)) this.reindex();
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
    this.activity.on('recorded', (call) => this.hints.transitions.observe(call));
    this.resolution = new Resolution({
      rank: (query) => this.rank(query),
      powers: () => this.powers(),
      extensions: (name) => options.registry.extensions(name),
      settings: options.settings,
      store: options.store,
      usage: this.usage,
      recommendations: this.recommendations,
      workspaceFolder: options.workspaceFolder,
      later: (work) => this.deferred.later(work),
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
    for (const [power, tools] of this.catalog.all()) this.knownTools.set(power, tools.map(asTool));
    this.reindex();
    options.registry.on('change', (change: RegistryChange) => void this.onRegistryChange(change));
    this.manager.on('toolsChanged', (power: string) => void this.refreshTools(power).catch(() => undefined));
    this.manager.on('state', (change: StateChange) => this.onPowerState(change));
  }

  private onQuarantined(reviews: Review[]): void {
    const names = reviews.map((r) => `${r.power}:${r.tool}`).join(', ');
    log.warn(`held for review (changed or new since approved): ${names}; see 'grimoire tools changes'`);
    this.sessions.tell(new Set(reviews.map((r) => r.power)), `Tools held for the user's review (they changed since approved): ${names}`);
    this.emit('toolsQuarantined', reviews);
  }

  /** Registers an MCP session (stdio: one; HTTP: one per client). Throws SessionLimitError past the cap. */
  openSession(id: string, handle: SessionHandle, expires: boolean): SessionState {
    const state = this.sessions.open(id, handle, expires);
    this.updateExposure();
    return state;
  }

  /** Frees a session's state; its powers' children are left to the idle rule. */
  closeSession(id: string): void {
    this.sessions.close(id);
  }

  /** Keeps every state change of a power in the event log and passes it on ('powerState'). */
  private onPowerState(change: StateChange): void {
    if (change.state === 'stopping') return;
    // A (re)started server may offer other tools than before: list them again, pins decide.
    if (change.state === 'active' && this.knownTools.has(change.power)) void this.refreshTools(change.power).catch((error) => log.warn(`'${change.power}': tools not listed again: ${errorMessage(error)}`));
    if (change.state === 'crashed') this.sessions.tell([change.power], maskSecrets(`Power '${change.power}' ${change.detail ?? 'crashed'}`));
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

  /** Active in the session; without one, active anywhere (the window or any session). */
  isActive(name: string, sessionId?: string): boolean {
    return sessionId ? this.sessions.state(sessionId).active.has(name) : this.sessions.users(name) > 0;
  }

  toolsOf(name: string): Tool[] {
    return this.knownTools.get(name) ?? [];
  }

  /** The power's tools that are not held for review. */
  usableTools(name: string): Tool[] {
    return this.toolsOf(name).filter((tool) => !this.trust.isQuarantined(name, tool.name));
  }

  /** The tool list of a session (the window's without one). */
  listTools(sessionId?: string): Tool[] {
    const state = sessionId ? this.sessions.state(sessionId) : this.sessions.window;
    return [...GATEWAY_TOOLS, ...[...state.exposed.values()].map((exposed) => exposed.definition)];
  }

  /** The hint network of the given powers (default: the active ones), with learned edges and follow rates. */
  hintNetwork(powers: string[] = [...this.sessions.activeAnywhere()]): HintNetwork {
    return hintNetworkReport(
      this.options.store,
      powers.flatMap((name) => (this.power(name) ? [{ name, tools: this.toolsOf(name).map((t) => t.name), extensions: this.options.registry.extensions(name) }] : [])),
      this.hints,
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

  /**
   * Starts a power, learns its tools and exposes them in the session (without one: in the window,
   * every current session and the new ones). Throws with a message the agent can act on.
   */
  async activate(name: string, sessionId?: string): Promise<ExposedTool[]> {
    const power = this.power(name);
    if (!power) throw new UnknownPowerError(name, this.powers().map((p) => p.name));
    if (this.options.settings.powers.disabled.includes(name)) {
      throw new UnknownPowerError(name, this.powers().map((p) => p.name).filter((n) => !this.options.settings.powers.disabled.includes(n)), 'is disabled in settings (powers.disabled)');
    }
    if (sessionId) this.deferred.later(() => this.recommendations.markUsed(sessionId, name));
    const connection = this.manager.connection(power);
    const targets = this.targets(sessionId);
    if (targets.every((state) => state.active.has(name)) && connection.state === 'active' && this.knownTools.has(name)) return this.exposedOf(name, sessionId);
    connection.resetRestarts();
    const added = targets.filter((state) => !state.active.has(name));
    for (const state of added) state.active.add(name);
    try {
      await this.refreshTools(name);
    } catch (error) {
      for (const state of added) state.active.delete(name);
      throw error;
    }
    this.updateExposure();
    return this.exposedOf(name, sessionId);
  }

  private targets(sessionId: string | undefined): SessionState[] {
    return sessionId ? [this.sessions.state(sessionId)] : this.sessions.all();
  }

  private exposedOf(name: string, sessionId?: string): ExposedTool[] {
    const state = sessionId ? this.sessions.state(sessionId) : this.sessions.window;
    return [...state.exposed.values()].filter((tool) => tool.power === name);
  }

  /** Removes a power from the session (without one: from the window and every session); the child stops when no one uses it. */
  async deactivate(name: string, sessionId?: string): Promise<void> {
    if (!this.power(name)) throw new UnknownPowerError(name, this.powers().map((p) => p.name));
    let removed = false;
    for (const state of this.targets(sessionId)) removed = state.active.delete(name) || removed;
    if (removed) this.updateExposure();
    if (this.sessions.users(name) === 0) await this.manager.get(name)?.stop('deactivated');
  }

  /** Answers a tools/call from any session: a gateway tool, an intent-declared call, or an active power's tool. */
  async callTool(name: string, args: Record<string, unknown>, caller: CallerContext): Promise<CallToolResult> {
    const gatewayAnswer = await handleGatewayTool(this, name, args, caller.sessionId);
    if (gatewayAnswer) {
      this.intel.reads.answered(caller.sessionId, gatewayAnswer);
      this.manager.noteTurn();
      return gatewayAnswer;
    }
    const variant = variantOf(name);
    if (variant) return handleIntentCall(this, variant, args, caller);
    const state = this.sessions.state(caller.sessionId);
    const exposed = state.exposed.get(name);
    if (!exposed) {
      const held = splitQualifiedName(name);
      if (held && this.trust.isQuarantined(held.power, held.tool)) return errorResult(awaitingReview(`${held.power}:${held.tool}`), { code: 'awaiting_review' });
      return errorResult(unknownToolMessage(name, [...state.active]));
    }
    const tool = this.toolsOf(exposed.power).find((t) => t.name === exposed.tool);
    return this.runCall({ power: exposed.power, tool: exposed.tool, calledAs: name, args, variant: 'direct', annotations: this.annotationsOf(exposed.power, tool ?? { name: exposed.tool }) }, caller);
  }

  /** Runs one call to a power's tool through the pipeline (validate -> record -> upstream). */
  runCall(call: Pick<CallContext, 'power' | 'tool' | 'calledAs' | 'args' | 'variant' | 'intent' | 'annotations' | 'proceed'>, caller: CallerContext): Promise<CallToolResult> {
    this.manager.noteTurn(call.power);
    this.deferred.later(() => this.recommendations.markUsed(caller.sessionId, `${call.power}:${call.tool}`));
    const cacheTtlSeconds = this.options.registry.extensions(call.power)?.cache?.[call.tool]?.ttlSeconds;
    return this.pipeline.run({ ...call, cacheTtlSeconds, sessionId: caller.sessionId, startedAt: Date.now(), signal: caller.signal, sample: caller.sample });
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
    this.deferred.flush();
    this.sessions.dispose();
    this.trust.close();
    await this.manager.shutdown();
    await this.intel.close();
  }

  /** Lists a power's tools (one listing at a time per power), checks them against the pins and updates every list. */
  private refreshTools(name: string): Promise<void> {
    const pending = this.listing.get(name);
    if (pending) return pending;
    const work = this.listAndCheck(name).finally(() => this.listing.delete(name));
    this.listing.set(name, work);
    return work;
  }

  private async listAndCheck(name: string): Promise<void> {
    const power = this.power(name);
    if (!power) return;
    const tools = await this.manager.connection(power).listTools();
    const changes = this.catalog.record(name, tools);
    this.knownTools.set(name, tools);
    if (changes.length > 0) log.info(`'${name}': ${changes.length} tool change(s) recorded in the catalog`);
    this.trust.check(name, tools, newToolsPolicy(power, this.options.settings.trust.newTools, this.options.workspaceFolder));
    for (const problem of unknownHintTools(name, this.options.registry.extensions(name), tools.map((t) => t.name))) log.warn(`${power.source.file}: ${problem}`);
    this.reindex();
    this.updateExposure();
  }

  private async discover(power: PowerDefinition): Promise<void> {
    const connection = this.manager.connection(power);
    const wasRunning = connection.state === 'active';
    const stopUnlessWanted = (why: string) => (!wasRunning && this.sessions.users(power.name) === 0 && connection.inFlight === 0 ? connection.stop(why) : undefined);
    // A failed discovery is not retried in the background for a power no one activated.
    await this.refreshTools(power.name).catch(async (error) => {
      await stopUnlessWanted('tools not discovered');
      throw error;
    });
    await stopUnlessWanted('tools discovered');
  }

  private async onRegistryChange(change: RegistryChange): Promise<void> {
    for (const removed of change.removed) for (const state of this.sessions.all()) state.active.delete(removed.name);
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

  /** Recomputes every session's tool list and tells each session whose list changed. */
  private updateExposure(): void {
    let changed = false;
    for (const state of this.sessions.all()) {
      const next = this.exposureFor(state.active);
      if (sameDefinitions(next, state.exposed)) continue;
      state.exposed = next;
      changed = true;
      state.handle?.toolsChanged();
    }
    if (changed) this.emit('toolsChanged');
  }

  /**
   * Exposure: in 'direct' mode the active powers' tools join the agent's list, in activation order,
   * up to the cap (editors cap the tools per request); in 'call-tools' mode none do and the agent
   * reaches them through call_tool_*. Blocked tools and tools held for review are never exposed.
   */
  private exposureFor(active: Set<string>): Map<string, ExposedTool> {
    const next = new Map<string, ExposedTool>();
    const { mode, maxTools } = this.options.settings.exposure;
    const blocked = new Set(this.options.settings.tools.blocked);
    for (const name of mode === 'direct' ? active : []) {
      const power = this.power(name);
      if (!power) continue;
      for (const tool of this.usableTools(name)) {
        if (next.size >= maxTools || blocked.has(`${name}:${tool.name}`)) continue;
        const exposed = exposeTool(power, tool, this.annotationsOf(name, tool), this.options.registry.extensions(name));
        next.set(exposed.definition.name, exposed);
      }
    }
    return next;
  }
}

function sameDefinitions(a: Map<string, ExposedTool>, b: Map<string, ExposedTool>): boolean {
  return JSON.stringify([...a.values()].map((e) => e.definition)) === JSON.stringify([...b.values()].map((e) => e.definition));
}

function unknownToolMessage(name: string, active: string[]): string {
  if (name === 'call_tool') {
    return "Tool 'call_tool' was not found: use call_tool_read, call_tool_write or call_tool_destructive (declaring the intent), or call an active power's tool directly as '<power>__<tool>'.";
  }
  const activeText = active.length ? `Active powers: ${active.join(', ')}.` : 'No power is active.';
  return `Tool '${preview(name)}' is not available. ${activeText} Call resolve_intent to find and activate the power you need.`;
}
