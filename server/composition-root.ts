/**
 * The composition root: builds every part of a gateway once (upstream, catalog, trust and the
 * tool policy, resolver and index, activity and event logs, ranking, hints, intel, sessions,
 * activation, the call pipeline), wires their reactions, and hands the parts to `Gateway`, which
 * is the MCP surface over them. Nothing else builds a gateway's parts (the read-only CLI commands
 * open single ones, such as the activity log, on the store alone).
 */
import { EventEmitter } from 'node:events';
import { ActivityLog } from './activity/activity-log.js';
import { EventLog } from './activity/event-log.js';
import { pruneAgedHistory } from './activity/history-retention.js';
import { CallPipeline } from './calls/pipeline.js';
import { CallRunner } from './calls/call-runner.js';
import { forwardStage } from './calls/forward-stage.js';
import { recordStage } from './calls/record-stage.js';
import { RecordingGate } from './calls/recording-gate.js';
import { validateStage } from './calls/validate-stage.js';
import { Catalog } from './catalog/catalog.js';
import { Discovery } from './catalog/discovery.js';
import { ServerToolLists } from './catalog/server-tool-lists.js';
import { declaresReadOnly } from './calls/annotations.js';
import { PowerTools } from './catalog/power-tools.js';
import { confirmReads, readCandidates, toolsViewOf } from './catalog/read-candidates.js';
import type { Settings } from './config/settings.js';
import { Activation } from './gateway/activation.js';
import type { GatewayEvents, GatewayPorts } from './gateway/ports.js';
import type { GatewayParts } from './gateway/gateway-parts.js';
import { catalogRarityOf, powerDocument } from './gateway/power-documents.js';
import {
  learnFromCall,
  onPowerState,
  onQuarantined,
  onRegistryChange,
  type ReactionParts,
} from './gateway/power-reactions.js';
import { Resolution } from './gateway/resolution.js';
import { SessionRegistry } from './gateway/sessions/session-registry.js';
import { SERVER_INFO } from './gateway/sessions/session-info.js';
import { SteeringLog } from './gateway/steering.js';
import { HintEvents } from './hints/hint-events.js';
import { hintNetworkReport } from './hints/hint-network-report.js';
import { hintsStage } from './hints/hints-stage.js';
import { LearnedTransitions } from './hints/learned-transitions.js';
import { SessionContexts } from './hints/session-context.js';
import { Intel } from './intel/intel.js';
import { summarizeStage } from './intel/summarize-stage.js';
import type { PowerRegistry } from './powers/registry.js';
import type { PowerDefinition } from './powers/types.js';
import { LearnedRequests, withLearned } from './ranking/learned-requests.js';
import { RecommendationLog } from './ranking/recommendations.js';
import { UsageStats } from './ranking/usage-stats.js';
import { currentWeights } from './ranking/weights-store.js';
import { createResolver } from './resolve/create-resolver.js';
import { PowerIndex } from './resolve/power-index.js';
import type { Store } from './store/store.js';
import { awaitingReview, settingsRefusalText, ToolPolicy } from './trust/tool-policy.js';
import { ToolTrust } from './trust/tool-trust.js';
import type { LaunchApprovals } from './trust/launch-approvals.js';
import { ReadConfirmations } from './trust/read-confirmations.js';
import { UpstreamManager } from './upstream/manager.js';
import { errorMessage, logger } from './log.js';
import { DeferredWork } from './util/deferred-work.js';

const log = logger('gateway');

export interface GatewayOptions {
  registry: PowerRegistry;
  store: Store;
  settings: Settings;
  workspaceFolder?: string;
  /** Which launches need the user's approval (the runtime knows the workspace and `--trust-workspace`). */
  launches: LaunchApprovals;
}

export function composeGateway(options: GatewayOptions): GatewayParts {
  const { registry, store, settings, workspaceFolder, launches } = options;
  const deferred = new DeferredWork((error) => log.warn(`a deferred write failed: ${errorMessage(error)}`));
  const notices = new EventEmitter<GatewayEvents>();
  const upstream = settings.upstream;
  const manager = new UpstreamManager({
    callTimeoutMs: upstream.callTimeoutMs,
    startTimeoutMs: upstream.startTimeoutMs,
    restart: upstream.restart,
    idle: upstream.idle,
    maxMessageBytes: Math.round(upstream.maxResultMB * 1024 * 1024),
  });
  // No server from the workspace or an imported config starts before the user approved its launch.
  manager.gateLaunchWith((power) => launches.refusal(power));
  const catalog = new Catalog(store);
  const sessions = new SessionRegistry(() => settings.sessions);
  const trust = new ToolTrust(store);
  const policy = new ToolPolicy(() => settings, trust);
  const reads = new ReadConfirmations(store);
  const tools = new PowerTools({
    registry,
    manager,
    catalog,
    lists: new ServerToolLists(store),
    trust,
    reads,
    settings,
    workspaceFolder,
    isGrimoire: (words) => words.title === SERVER_INFO.title,
  });
  /** Discovery starts servers in the background: only those that can start, are not disabled, and wait for no approval. */
  const discoverable = (power: PowerDefinition) =>
    power.problems.length === 0 && !policy.powerRefusal(power.name) && !launches.waiting(power);
  const recommendations = new RecommendationLog(store);
  // A session with no recommendation has nothing to credit: its calls leave no deferred job.
  const markUsed = (sessionId: string, name: string) => {
    if (recommendations.knows(sessionId))
      deferred.later(
        () =>
          void recommendations
            .markUsed(sessionId, name)
            .catch((error) => log.warn(`a recommendation was not credited: ${errorMessage(error)}`)),
      );
  };
  const activation = new Activation({
    sessions,
    tools,
    registry,
    manager,
    policy,
    settings,
    markUsed,
    toolsChanged: () => notices.emit('toolsChanged'),
  });
  const { resolver, embedder, embeddings } = createResolver(settings.resolve, store, store.dataDir);
  embedder.warmUp();
  void embedder.ready().then(() => notices.emit('matchingChanged'));
  const intel = new Intel({
    store,
    settings: () => settings.intel,
    embeddings,
    toolLists: () => ({
      gateway: activation.listTools(),
      powers: tools.configuredTools((name) => !policy.powerRefusal(name)),
    }),
    userOf: (sessionId) => activity.userOf(sessionId),
  });
  const discovery = new Discovery(
    (power) => tools.discover(power, (name) => sessions.users(name) > 0),
    () => settings.discovery.concurrency,
  );
  // Whether the start-up (or an agent's request) asked for discovery already: a request asks only before that.
  let discoveryAsked = false;
  const discoverUnknown = () => {
    if (!settings.discovery.enabled) return;
    discoveryAsked = true;
    // A disabled or unapproved power's server is never run, not even to learn its tools; one kept without its
    // tools' definitions is listed again.
    for (const power of tools.powers()) {
      if (
        discoverable(power) &&
        (catalog.refreshedAt(power.name) === undefined || catalog.lacksDefinitions(power.name))
      )
        discovery.enqueue(power);
    }
  };
  const activity = new ActivityLog(store);
  const events = new EventLog(store);
  const learned = new LearnedRequests(store);
  const documents = () => {
    const powers = tools.powers();
    const rarity = catalogRarityOf(powers, (name) => tools.rankingToolsOf(name));
    const all = powers.map((power) =>
      powerDocument(power, tools.rankingToolsOf(power.name), (tool) => tools.annotationsOf(power.name, tool), rarity),
    );
    return settings.ranking.learn ? withLearned(all, learned.documents()) : all;
  };
  const index = new PowerIndex(resolver, documents);
  const reindex = () => index.reindex();
  activity.on('recorded', (call) =>
    learnFromCall(
      learned,
      () => settings.ranking.learn && recommendations.knows(call.session),
      reindex,
      call,
      () => recommendations.marked(call.session),
    ),
  );
  const usage = new UsageStats(activity);
  const hints = {
    sessions: new SessionContexts(),
    events: new HintEvents(store),
    transitions: new LearnedTransitions(store, () => activity.version),
  };
  activity.on('recorded', (call) => hints.transitions.observe(call));
  // Retention, then the first reads of the log: queries that can wait, the gateway serves meanwhile.
  void activity
    .prune(settings.activity.retentionDays, settings.activity.maxEntries)
    .then(() => pruneAgedHistory(store, settings.activity.retentionDays))
    .catch((error) => log.warn(`could not apply the activity retention: ${errorMessage(error)}`))
    .then(() => Promise.all([usage.refresh(), hints.transitions.refresh()]))
    .catch((error) => log.warn(`could not read the activity log: ${errorMessage(error)}`));
  const resolution = new Resolution({
    rank: (query) => index.rank(query),
    powers: () => tools.powers(),
    policy,
    extensions: (name) => registry.extensions(name),
    settings,
    store,
    usage,
    recommendations,
    workspaceFolder,
    later: (work) => deferred.later(work),
    launchFlag: (power) => launches.flag(power),
    // An agent's request that comes before the start-up's discovery was asked for asks for it itself; it
    // waits only for powers with no tools known.
    catalogPending: (discover) => {
      if (discover && !discoveryAsked) discoverUnknown();
      return discovery.settled(settings.discovery.waitMs, (name) => !tools.rankable(name));
    },
    listed: (name) => tools.rankable(name),
    writes: (name) =>
      !tools.listed(name) || tools.toolsOf(name).some((tool) => !declaresReadOnly(tools.annotationsOf(name, tool))),
  });
  const toolOf = (power: string, tool: string) => tools.toolsOf(power).find((t) => t.name === tool);
  const pipeline = new CallPipeline([
    recordStage(
      activity,
      () => settings.activity,
      new RecordingGate({
        where: store.spansMachines ? 'the PostgreSQL database' : `the data folder ${store.dataDir}`,
        probe: async (detail) => {
          events.record('activity-log-resumed', null, detail);
          await activity.acknowledged();
        },
      }),
    ),
    validateStage(() => settings.intentDeclaration.strictServerValidation),
    hintsStage({
      ...hints,
      extensions: (power) => registry.extensions(power),
      tool: toolOf,
      settings: () => settings.hints,
    }),
    summarizeStage(intel, toolOf),
    forwardStage(manager, (name) => tools.power(name)),
  ]);
  const calls = new CallRunner({
    pipeline,
    noteTurn: (power) => manager.noteTurn(power),
    markUsed,
    cacheTtlSeconds: (power, tool) => registry.extensions(power)?.cache?.[tool]?.ttlSeconds,
  });
  const steering = new SteeringLog();
  const ports: GatewayPorts = {
    powers: () => tools.powers(),
    power: (name) => tools.power(name),
    toolsOf: (name) => tools.toolsOf(name),
    annotationsOf: (power, tool) => tools.annotationsOf(power, tool),
    ensureTools: (name, scope) => tools.ensureTools(name, scope),
    resolve: (query, resolveOptions) => resolution.resolve(query, resolveOptions),
    resolverStatus: () => index.status(),
    rankTools: (query) => index.rankTools(query),
    activate: (name, sessionId) => activation.activate(name, sessionId),
    deactivate: (name, sessionId) => activation.deactivate(name, sessionId),
    isActive: (name, sessionId) => activation.isActive(name, sessionId),
    powerRefusal: (name) => policy.powerRefusal(name),
    runCall: (call, caller) => calls.run(call, caller),
    weights: () => currentWeights(store),
    hintNetwork: (powers = [...sessions.activeAnywhere()]) =>
      hintNetworkReport(
        store,
        powers.flatMap((name) =>
          tools.power(name)
            ? [{ name, tools: tools.toolsOf(name).map((t) => t.name), extensions: registry.extensions(name) }]
            : [],
        ),
        hints,
        settings.hints.minSupport,
      ),
    discoverUnknownPowers: discoverUnknown,
    settings,
    store,
    manager,
    activity,
    usage,
    recommendations,
    hints,
    intel,
    steering,
    sessions,
    trust,
    reads,
    readCandidates: () =>
      readCandidates(
        tools.powers().map((power) => toolsViewOf(tools, power.name)),
        reads,
      ),
    confirmReads: (targets) => confirmReads(targets, tools, reads),
    policy,
    launches,
  };

  const reactions: ReactionParts = { tools, activation, sessions, events, manager, notices, reindex };
  const discoverAdded = (power: Parameters<Discovery['enqueue']>[0]) => {
    if (settings.discovery.enabled && discoverable(power)) discovery.enqueue(power);
  };
  trust.on('change', () => activation.updateExposure());
  // An approved launch (here, or by the CLI in another process): its tools can be learned now.
  launches.on('change', () => ports.discoverUnknownPowers());
  reads.on('change', () => activation.updateExposure());
  trust.on('quarantined', (reviews) => onQuarantined(reactions, reviews));
  tools.on('listed', (power) => {
    reindex();
    activation.updateExposure();
    notices.emit('powerListed', power);
  });
  reindex();
  registry.on('change', (change) => void onRegistryChange(reactions, change, discoverAdded));
  manager.on('toolsChanged', (power) => void tools.refresh(power).catch(() => undefined));
  manager.checkToolsWith({
    check: (power) => tools.refresh(power),
    refusal: (power, tool) => {
      const refused = policy.callRefusal(power, tool);
      if (!refused) return undefined;
      return {
        code: refused,
        message:
          refused === 'awaiting_review'
            ? awaitingReview(`${power}:${tool}`)
            : settingsRefusalText(refused, power, tool),
      };
    },
  });
  manager.on('state', (change) => onPowerState(reactions, change));

  return {
    registry,
    catalog,
    discovery,
    tools,
    index,
    resolution,
    activation,
    calls,
    events,
    learned,
    ports,
    notices,
    async shutdown() {
      deferred.flush();
      sessions.dispose();
      trust.close();
      launches.close();
      reads.close();
      await manager.shutdown();
      await intel.close();
    },
  };
}
