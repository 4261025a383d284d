/**
 * The gateway behind the extension: one runtime and its MCP HTTP endpoint, driven over JSON-RPC
 * (vscode-languageserver, no text-document features). Settings come from the client; gateway events
 * are pushed to it as notifications. Start, reconfigure and stop run one at a time.
 */
import { performance } from 'node:perf_hooks';
import { ResponseError, type CancellationToken, type Connection } from 'vscode-languageserver/node';
import type { HttpEndpoint } from '../gateway/http/http-server.js';
import { createRuntime, type Runtime } from '../runtime.js';
import { errorMessage, logger, registerSecret } from '../log.js';
import { maskDeep, maskSecrets } from '../util/secrets.js';
import {
  gatewayConfig,
  onlyThresholdsDiffer,
  parseClientSettings,
  parseInitializationOptions,
  type GatewayConfig,
} from './client-settings.js';
import { Deferred } from './deferred.js';
import {
  gatewayActivity,
  gatewayHints,
  gatewayRate,
  gatewayRecommendationStats,
  gatewayTokenReport,
  gatewayTune,
} from './insight-requests.js';
import { languageModelVia, parseAvailability } from './language-model-bridge.js';
import { publishLiveUpdates } from './live-updates.js';
import { hintsPayload, RECENT_HINTS } from './hints-payloads.js';
import { rpcPorts, type RpcPorts } from './rpc-ports.js';
import { gatewayStatus, powerInfo, powersPayload, resolveResult } from './payloads.js';
import { catalogRarityOf } from '../gateway/power-documents.js';
import { serveAgain } from './serve-again.js';
import { fetchSemanticModel } from './model-requests.js';
import { serverIdentity } from '../powers/import-common.js';
import { spellCapabilities, SpellLanguageServer } from '../spells/spell-language-server.js';
import { spellContext } from '../spells/spell-context.js';
import { keywordsFor, spellKeywordsParams } from '../spells/spell-keywords.js';
import { toolReviewInfo } from '../trust/review-info.js';
import {
  approveTool,
  confirmReadsRequest,
  readCandidatesPayload,
  rejectTool,
  toolChanges,
} from './tool-review-requests.js';
import { approvePowerLaunch } from './launch-requests.js';
import type { Review } from '../trust/pins.js';
import {
  type Endpoint,
  type GatewayHealth,
  type GatewayStatus,
  type PowerInfo,
  type PowerStateChange,
} from '../../protocol/records.js';
import {
  activatePower,
  approveLaunch,
  approveToolChange,
  listToolChanges,
  rejectToolChange,
  listReadCandidates,
  confirmReads,
  toolsQuarantined,
  deactivatePower,
  didChangeConfiguration,
  GATEWAY_ERROR,
  getEndpoint,
  getHints,
  getRecommendationStats,
  getStatus,
  getTokenReport,
  downloadModel,
  modelDownloadProgress,
  hintsChanged,
  languageModelAvailability,
  listActivity,
  listPowers,
  powersChanged,
  powerStateChanged,
  rateActivity,
  reloadPowers,
  resolveIntent,
  spellKeywords,
  statusChanged,
  tuneWeights,
  type LanguageModelAvailability,
  type NotificationType,
  type RequestType,
} from '../../protocol/extension-methods.js';
import { type InitializationOptions } from '../../protocol/client-settings-schema.js';

const log = logger('rpc');
const PUSH_DEBOUNCE_MS = 50;
/** The registry reads its sources again this long after its watchers are re-armed. */
const RELOAD_SETTLE_MS = 300;

export interface GatewayRpcOptions {
  env: NodeJS.ProcessEnv;
  /** Where the demo powers' servers are, when not in this package's node_modules (the .vsix). */
  demoModules?: string;
  version: string;
}

export class GatewayRpc {
  private init: InitializationOptions = parseInitializationOptions(undefined).options;
  private config?: GatewayConfig;
  private runtime?: Runtime;
  private endpoint?: HttpEndpoint;
  private endpointVersion = 0;
  private health: GatewayHealth = 'starting';
  private failure?: string;
  private runtimeReady = new Deferred<Runtime>();
  private endpointReady = new Deferred<Endpoint>();
  private queue: Promise<void> = Promise.resolve();
  private pushTimer?: NodeJS.Timeout;
  private unsubscribe: () => void = () => undefined;
  private languageModel: LanguageModelAvailability = { available: false, models: [] };
  /** The endpoint to serve again at the next start: the previous process's, then this process's own. */
  private reuse?: { url: string; token: string };
  private spells?: SpellLanguageServer;

  constructor(
    private readonly connection: Connection,
    private readonly options: GatewayRpcOptions,
  ) {}

  listen(): void {
    const connection = this.connection;
    connection.onInitialize((params) => {
      const { options, problems } = parseInitializationOptions(params.initializationOptions);
      this.init = options;
      this.reuse = options.restore?.endpoint;
      for (const problem of problems) log.warn(problem);
      return { capabilities: spellCapabilities, serverInfo: { name: 'grimoire', version: this.options.version } };
    });
    connection.onInitialized(() => this.enqueue(() => this.start(this.init.restore?.activeServers ?? [])));
    this.onNotification(didChangeConfiguration, (params) => {
      const { settings, problems } = parseClientSettings(params.settings);
      for (const problem of problems) log.warn(`configuration change ignored: ${problem}`);
      if (settings) this.enqueue(() => this.reconfigure({ ...this.init, settings }));
    });
    this.handle(getStatus, () => this.status());
    this.handle(listPowers, async () => {
      const runtime = await this.runtimeReady.promise;
      return powersPayload(rpcPorts(runtime), runtime.registry.snapshot());
    });
    this.handle(activatePower, async ({ name }) => {
      const runtime = await this.runtimeReady.promise;
      await rpcPorts(runtime).activate(name);
      return this.powerInfoOf(runtime, name);
    });
    this.handle(deactivatePower, async ({ name }) => {
      const runtime = await this.runtimeReady.promise;
      await rpcPorts(runtime).deactivate(name);
      return this.powerInfoOf(runtime, name);
    });
    this.handle(resolveIntent, async ({ query, explain }) => {
      if (typeof query !== 'string' || !query.trim())
        throw new Error('The query is empty: describe what you want to do.');
      const ports = await this.ports();
      const started = performance.now();
      const outcome = await ports.resolve(query, { explain: explain === true });
      return resolveResult(outcome, ports.settings.resolve, performance.now() - started, ports.resolverStatus());
    });
    this.handle(listActivity, async (params) => gatewayActivity(await this.ports(), params));
    this.handle(rateActivity, async (params) => gatewayRate(await this.ports(), params));
    this.handle(getRecommendationStats, async () => gatewayRecommendationStats(await this.ports()));
    this.handle(tuneWeights, async () => gatewayTune(await this.ports()));
    this.handle(getHints, async (params) => gatewayHints(await this.ports(), params));
    this.handle(getTokenReport, async () => gatewayTokenReport(await this.ports()));
    this.handle(listToolChanges, async () => toolChanges(await this.ports()));
    this.handle(approveToolChange, async (params) => approveTool(await this.ports(), params));
    this.handle(rejectToolChange, async (params) => rejectTool(await this.ports(), params));
    this.handle(approveLaunch, async (params) => {
      const runtime = await this.runtimeReady.promise;
      approvePowerLaunch(rpcPorts(runtime), params);
      return this.powerInfoOf(runtime, params.name);
    });
    this.handle(listReadCandidates, async () => readCandidatesPayload(await this.ports()));
    this.handle(confirmReads, async (params) => confirmReadsRequest(await this.ports(), params));
    this.onNotification(languageModelAvailability, (params) => {
      const next = parseAvailability(params);
      if (next.available !== this.languageModel.available)
        log.info(
          next.available
            ? `VS Code language models available for summaries: ${next.models.join(', ')}`
            : 'no VS Code language model for summaries',
        );
      this.languageModel = next;
      if (this.runtime) this.lendLanguageModel(this.runtime);
    });
    this.handle(reloadPowers, async () => {
      const runtime = await this.runtimeReady.promise;
      // Re-arming the watchers makes the registry read every source again and report what changed.
      runtime.registry.close();
      runtime.registry.watch();
      await new Promise((resolve) => setTimeout(resolve, RELOAD_SETTLE_MS));
      return powersPayload(rpcPorts(runtime), runtime.registry.snapshot());
    });
    this.handle(getEndpoint, () => this.endpointReady.promise);
    // The resolver's tokenizer and lexicon, without the runtime: answered while the gateway starts or after it failed.
    this.handle(spellKeywords, (params) => keywordsFor(spellKeywordsParams(params)));
    this.handle(downloadModel, async (params) =>
      fetchSemanticModel(await this.runtimeReady.promise, params, (progress) =>
        this.notify(modelDownloadProgress, progress),
      ),
    );
    connection.onShutdown(() => this.enqueue(() => this.stopRuntime()));
    this.spells = new SpellLanguageServer(connection, (file) =>
      spellContext({ runtime: this.runtime, env: this.options.env, extraDirs: this.runtime?.extraSpellDirs }, file),
    );
    this.spells.listen();
    connection.listen();
  }

  status(): GatewayStatus {
    return gatewayStatus(
      { health: this.health, message: this.failure, url: this.endpoint?.url, endpointVersion: this.endpointVersion },
      this.runtime && rpcPorts(this.runtime),
      this.runtime?.registry.snapshot(),
    );
  }

  /** The running runtime's ports, once it has started. */
  private async ports(): Promise<RpcPorts> {
    return rpcPorts(await this.runtimeReady.promise);
  }

  private handle<P, R>(
    type: RequestType<P, R>,
    handler: (params: NoInfer<P>) => NoInfer<R> | Promise<NoInfer<R>>,
  ): void {
    this.connection.onRequest(type.method, async (params: P): Promise<unknown> => {
      try {
        const result = await handler(params);
        // The endpoint's token is the one secret the extension is meant to get.
        return type.method === getEndpoint.method ? result : maskDeep(result);
      } catch (error) {
        throw new ResponseError(GATEWAY_ERROR, maskSecrets(errorMessage(error)));
      }
    });
  }

  /** A request to the extension (the language model). */
  private ask<P, R>(type: RequestType<P, R>, params: NoInfer<P>, token: CancellationToken): Promise<R> {
    return this.connection.sendRequest<R>(type.method, params, token);
  }

  /** A client notification; its params are the client's word only, checked by the handler. */
  private onNotification<P>(type: NotificationType<P>, handler: (params: NoInfer<P>) => void): void {
    this.connection.onNotification(type.method, handler);
  }

  private notify<P>(type: NotificationType<P>, params: NoInfer<P>): void {
    this.connection
      .sendNotification(type.method, maskDeep(params))
      .catch((error) => log.debug(`${type.method} not sent: ${errorMessage(error)}`));
  }

  private enqueue(work: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(work).catch((error) => log.error(errorMessage(error)));
    return this.queue;
  }

  private lendLanguageModel(runtime: Runtime): void {
    rpcPorts(runtime).intel.setLanguageModel(
      this.languageModel.available
        ? languageModelVia((type, params, token) => this.ask(type, params, token))
        : undefined,
    );
  }

  private powerInfoOf(runtime: Runtime, name: string): PowerInfo {
    const power = runtime.registry.get(name);
    if (!power) throw new Error(`Power '${name}' is gone: the powers were reloaded meanwhile.`);
    const ports = rpcPorts(runtime);
    return powerInfo(
      ports,
      power,
      catalogRarityOf(runtime.registry.snapshot().powers, (name) => ports.toolsOf(name)),
    );
  }

  /** `activeServers`: the servers whose powers were active before a restart; they are active in the first push already. */
  private async start(activeServers: string[]): Promise<void> {
    const started = performance.now();
    const config = gatewayConfig(this.init, this.options.env, this.options.demoModules);
    this.reportProblems(config);
    this.config = config;
    let runtime: Runtime | undefined;
    try {
      runtime = await createRuntime(config.runtime);
      const endpoint = await serveAgain(runtime.gateway, this.reuse);
      registerSecret(endpoint.token);
      this.runtime = runtime;
      this.endpoint = endpoint;
      this.endpointVersion += 1;
      this.health = 'ready';
      this.failure = undefined;
      this.subscribe(runtime);
      this.runtimeReady.resolve(runtime);
      this.endpointReady.resolve({ url: endpoint.url, token: endpoint.token, version: this.endpointVersion });
      log.info(
        `serving MCP on ${endpoint.url}${this.reuse?.url === endpoint.url ? ' (as before the restart)' : ''}` +
          `; ready in ${Math.round(performance.now() - started)} ms`,
      );
      this.reuse = { url: endpoint.url, token: endpoint.token };
      this.activateAgain(runtime, activeServers);
      // The Hints view shows this process's active powers from now on, not the last process's.
      void hintsPayload(rpcPorts(runtime), { scope: 'active', recent: RECENT_HINTS })
        .then((payload) => this.notify(hintsChanged, payload))
        .catch((error) => log.debug(`hints not sent: ${errorMessage(error)}`));
      this.init = { ...this.init, restore: undefined };
      rpcPorts(runtime).discoverUnknownPowers();
    } catch (error) {
      await runtime?.close().catch(() => undefined);
      this.health = 'failed';
      this.failure = `The gateway did not start: ${errorMessage(error)}`;
      log.error(this.failure);
      this.runtimeReady.reject(new Error(this.failure));
      this.endpointReady.reject(new Error(this.failure));
    }
    this.pushNow();
  }

  private async reconfigure(next: InitializationOptions): Promise<void> {
    const config = gatewayConfig(next, this.options.env, this.options.demoModules);
    this.init = next;
    const previous = this.config;
    if (
      previous &&
      JSON.stringify({ ...previous, runtime: { ...previous.runtime, env: undefined } }) ===
        JSON.stringify({ ...config, runtime: { ...config.runtime, env: undefined } })
    )
      return;
    this.reportProblems(config);
    const runtime = this.runtime;
    if (runtime && previous && onlyThresholdsDiffer(previous, config)) {
      // The gateway reads its thresholds from this settings object at every resolve.
      Object.assign(runtime.settings.resolve, config.settings.resolve);
      this.config = config;
      log.info('resolve thresholds changed; applied without a restart');
      this.pushNow();
      return;
    }
    const ports = runtime && rpcPorts(runtime);
    const wasActive = ports
      ? ports
          .powers()
          .filter((power) => ports.isActive(power.name))
          .map((power) => serverIdentity(power.server))
      : [];
    log.info('settings changed; restarting the gateway');
    this.health = 'restarting';
    this.runtimeReady = new Deferred<Runtime>();
    this.endpointReady = new Deferred<Endpoint>();
    this.pushNow();
    // No power is active while the gateway restarts: the Hints view does not keep crediting the old ones.
    this.notify(hintsChanged, { scope: 'active', powers: [], nodes: [], edges: [], followRates: [], recent: [] });
    await this.stopRuntime();
    await this.start(wasActive);
  }

  /**
   * The powers whose servers were active before a restart, active again: matched by the server they
   * start, never by name (a power of the same name may now start another server). The activation
   * marks them active at once, so the push that follows shows them active, not stopped.
   */
  private activateAgain(runtime: Runtime, servers: string[]): void {
    if (servers.length === 0) return;
    const wanted = new Set(servers);
    const again = runtime.registry.snapshot().powers.filter((power) => wanted.has(serverIdentity(power.server)));
    for (const power of again)
      void rpcPorts(runtime)
        .activate(power.name)
        .catch((error) => log.warn(`'${power.name}' not activated again: ${errorMessage(error)}`));
    const gone = servers.length - new Set(again.map((power) => serverIdentity(power.server))).size;
    log.info(
      `active again after the restart: ${again.map((power) => power.name).join(', ') || 'none'}` +
        `${gone > 0 ? `; ${gone} server${gone === 1 ? '' : 's'} active before ${gone === 1 ? 'is' : 'are'} no longer configured` : ''}`,
    );
  }

  private reportProblems(config: GatewayConfig): void {
    for (const problem of config.problems) {
      log.warn(problem);
      void this.connection.window.showWarningMessage(maskSecrets(`Grimoire: ${problem}`));
    }
  }

  private async stopRuntime(): Promise<void> {
    clearTimeout(this.pushTimer);
    this.unsubscribe();
    this.unsubscribe = () => undefined;
    const endpoint = this.endpoint;
    const runtime = this.runtime;
    this.endpoint = undefined;
    this.runtime = undefined;
    await endpoint?.close().catch((error) => log.warn(errorMessage(error)));
    await runtime?.close().catch((error) => log.warn(errorMessage(error)));
  }

  private subscribe(runtime: Runtime): void {
    const onState = (change: PowerStateChange) => {
      this.notify(powerStateChanged, change);
      this.schedulePush();
    };
    const onChange = () => this.schedulePush();
    const onQuarantined = (reviews: Review[]) => {
      this.notify(toolsQuarantined, { reviews: reviews.map(toolReviewInfo) });
      this.schedulePush();
    };
    const ports = rpcPorts(runtime);
    ports.gatewayEvents.on('toolsQuarantined', onQuarantined);
    ports.trust.on('change', onChange);
    ports.launches.on('change', onChange);
    ports.gatewayEvents.on('powerState', onState);
    ports.gatewayEvents.on('toolsChanged', onChange);
    ports.gatewayEvents.on('matchingChanged', onChange);
    runtime.registry.on('change', onChange);
    runtime.registry.on('issues', onChange);
    this.lendLanguageModel(runtime);
    const stopLiveUpdates = publishLiveUpdates(ports, (type, params) => this.notify(type, params));
    this.unsubscribe = () => {
      stopLiveUpdates();
      ports.intel.setLanguageModel(undefined);
      ports.gatewayEvents.off('toolsQuarantined', onQuarantined);
      ports.trust.off('change', onChange);
      ports.launches.off('change', onChange);
      ports.gatewayEvents.off('powerState', onState);
      ports.gatewayEvents.off('toolsChanged', onChange);
      ports.gatewayEvents.off('matchingChanged', onChange);
      runtime.registry.off('change', onChange);
      runtime.registry.off('issues', onChange);
    };
  }

  private schedulePush(): void {
    clearTimeout(this.pushTimer);
    this.pushTimer = setTimeout(() => this.pushNow(), PUSH_DEBOUNCE_MS);
  }

  private pushNow(): void {
    clearTimeout(this.pushTimer);
    const runtime = this.runtime;
    if (runtime) this.notify(powersChanged, powersPayload(rpcPorts(runtime), runtime.registry.snapshot()));
    this.notify(statusChanged, this.status());
    this.spells?.validateAll();
  }
}
