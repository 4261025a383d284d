/**
 * The gateway process, started and stopped by vscode-languageclient over node IPC, and the last state
 * it pushed (status, powers). Requests and notifications are typed by protocol/extension-methods.ts.
 */
import * as readline from 'node:readline';
import * as vscode from 'vscode';
import {
  LanguageClient,
  State,
  TransportKind,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';
import * as protocol from '../protocol/extension-methods.js';
import type * as settingsSchema from '../protocol/client-settings-schema.js';
import type {
  ActivityRating,
  ActivityInfo,
  ActivityRated,
  Endpoint,
  GatewayStatus,
  HintsPayload,
  LoadIssueInfo,
  PowerInfo,
  PowersPayload,
  RecommendationStats,
  TokenReportInfo,
} from '../protocol/records.js';
import { parseServerLogLine, redactingChannel } from './log.js';
import { readClientSettings } from './settings.js';

/** How long a gateway process may take to stop its powers and exit. */
const STOP_TIMEOUT_MS = 10_000;

export const INITIAL_STATUS: GatewayStatus = {
  health: 'starting',
  endpointVersion: 0,
  powers: 0,
  activePowers: 0,
  crashedPowers: 0,
  issues: 0,
};

export function currentSettings(): settingsSchema.ClientSettings {
  const config = vscode.workspace.getConfiguration('grimoire');
  return readClientSettings({
    value: (key) => config.get(key),
    explicit: (key) => {
      const inspected = config.inspect(key);
      return inspected?.workspaceFolderValue ?? inspected?.workspaceValue ?? inspected?.globalValue;
    },
  });
}

export class GatewayClient implements vscode.Disposable {
  private readonly client: LanguageClient;
  private readonly secrets = new Set<string>();
  private readonly disposables: vscode.Disposable[] = [];
  status: GatewayStatus = INITIAL_STATUS;
  powers: PowerInfo[] = [];
  issues: LoadIssueInfo[] = [];
  /** The active powers' hint network and recent hints, as last pushed. */
  hints: HintsPayload | undefined;
  recommendationStats: RecommendationStats | undefined;
  tokenReport: TokenReportInfo | undefined;
  /** Grows each time a gateway process starts (a restart, or a crash and its restart). */
  generation = 0;
  /** The MCP endpoint last served: a restarted process serves it again. Secret (its token). */
  private lastEndpoint: Endpoint | undefined;
  private readonly statusEmitter = new vscode.EventEmitter<GatewayStatus>();
  private readonly powersEmitter = new vscode.EventEmitter<PowerInfo[]>();
  private readonly activityEmitter = new vscode.EventEmitter<ActivityInfo>();
  private readonly ratedEmitter = new vscode.EventEmitter<ActivityRated>();
  private readonly hintsEmitter = new vscode.EventEmitter<HintsPayload>();
  private readonly statsEmitter = new vscode.EventEmitter<RecommendationStats>();
  private readonly tokensEmitter = new vscode.EventEmitter<TokenReportInfo>();
  private readonly connectedEmitter = new vscode.EventEmitter<void>();
  readonly onDidChangeStatus = this.statusEmitter.event;
  readonly onDidChangePowers = this.powersEmitter.event;
  /** Each call through the gateway, as soon as it is recorded. */
  readonly onDidRecordActivity = this.activityEmitter.event;
  readonly onDidRateActivity = this.ratedEmitter.event;
  readonly onDidChangeHints = this.hintsEmitter.event;
  readonly onDidChangeRecommendationStats = this.statsEmitter.event;
  readonly onDidChangeTokenReport = this.tokensEmitter.event;
  /** The gateway process (re)started and its state was read again: lists kept elsewhere should be asked for again. */
  readonly onDidConnect = this.connectedEmitter.event;

  constructor(
    context: vscode.ExtensionContext,
    readonly channel: vscode.LogOutputChannel,
  ) {
    const module = context.asAbsolutePath('dist/server/process/main.js');
    const args = ['--demo-servers', context.asAbsolutePath('dist/demo-servers')];
    const serverOptions: ServerOptions = {
      run: { module, args, transport: TransportKind.ipc },
      debug: { module, args, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6019'] } },
    };
    const redacted = redactingChannel(channel, () => this.secrets);
    const clientOptions: LanguageClientOptions = {
      // Spell files get diagnostics, completion, hover and quick fixes from the gateway process.
      documentSelector: [{ language: 'grimoire-spell' }],
      outputChannel: redacted,
      traceOutputChannel: redacted,
      // An untrusted workspace's spells and mcp.json name programs to run: they are read once trusted.
      initializationOptions: (): settingsSchema.InitializationOptions => ({
        settings: currentSettings(),
        workspaceFolder: vscode.workspace.isTrusted ? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath : undefined,
        restore: this.restoreOptions(),
      }),
      stdioOptions: {
        stdout: (input, out) =>
          readline.createInterface({ input, crlfDelay: Infinity }).on('line', (line) => out.info(line)),
        stderr: (input, out) =>
          readline.createInterface({ input, crlfDelay: Infinity }).on('line', (line) => {
            const { level, text } = parseServerLogLine(line);
            out[level](text);
          }),
      },
    };
    this.client = new LanguageClient('grimoire', 'Grimoire Gateway', serverOptions, clientOptions);
    this.disposables.push(
      this.onNotification(protocol.statusChanged, (status) => this.setStatus(status)),
      this.onNotification(protocol.powersChanged, (payload) => this.setPowers(payload)),
      // The views redraw from the powers list that follows; a crash is worth a line in the log.
      this.onNotification(protocol.powerStateChanged, (change) => {
        const line = `power '${change.power}' ${change.state}${change.detail ? `: ${change.detail}` : ''}`;
        if (change.state === 'crashed') this.channel.warn(line);
        else this.channel.debug(line);
      }),
      this.onNotification(protocol.activityRecorded, (entry) => this.activityEmitter.fire(entry)),
      this.onNotification(protocol.activityRated, (rated) => this.ratedEmitter.fire(rated)),
      this.onNotification(protocol.hintsChanged, (payload) => this.setHints(payload)),
      this.onNotification(protocol.recommendationStatsChanged, (stats) => this.setRecommendationStats(stats)),
      this.onNotification(protocol.tokenReportChanged, (report) => this.setTokenReport(report)),
      this.client.onDidChangeState((event) => {
        if (event.newState === State.Starting) this.generation += 1;
        if (event.newState === State.Running) void this.refresh();
        if (event.newState === State.Stopped) this.setStatus({ ...this.status, health: 'restarting' });
      }),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('grimoire'))
          this.notify(protocol.didChangeConfiguration, { settings: currentSettings() });
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.restart()),
      this.statusEmitter,
      this.powersEmitter,
      this.activityEmitter,
      this.ratedEmitter,
      this.hintsEmitter,
      this.statsEmitter,
      this.tokensEmitter,
      this.connectedEmitter,
    );
  }

  /** What a restarted process takes over: the endpoint and the active powers (none at the first start). */
  private restoreOptions(): settingsSchema.RestoreOptions | undefined {
    if (!this.lastEndpoint && this.powers.length === 0) return undefined;
    return {
      ...(this.lastEndpoint ? { endpoint: { url: this.lastEndpoint.url, token: this.lastEndpoint.token } } : {}),
      activeServers: this.powers.filter((power) => power.active).map((power) => power.serverId),
    };
  }

  /** Starts the process and resolves once it has answered `initialize`. */
  async start(): Promise<void> {
    await this.client.start();
  }

  async stop(): Promise<void> {
    if (this.client.needsStop()) await this.client.stop(STOP_TIMEOUT_MS);
  }

  /**
   * A new gateway process. vscode-languageclient's own restart() gives the old one 2 s to shut down
   * (it stops every power first) and, past that, throws and starts nothing: here it gets longer, and a
   * late stop still starts the new one (the old process is ended by the client).
   */
  async restart(): Promise<void> {
    try {
      if (this.client.needsStop()) await this.client.stop(STOP_TIMEOUT_MS);
    } catch (error) {
      this.channel.warn(`the gateway process did not stop in time (${(error as Error).message}); starting a new one`);
    }
    await this.client.start();
  }

  // The one place each direction meets the connection: `type` alone decides the params' and the result's types.

  request<P, R>(type: protocol.RequestType<P, R>, params: NoInfer<P>, token?: vscode.CancellationToken): Promise<R> {
    return this.client.sendRequest<R>(type.method, params, token);
  }

  notify<P>(type: protocol.NotificationType<P>, params: NoInfer<P>): void {
    if (this.client.isRunning()) void this.client.sendNotification(type.method, params);
  }

  /** Listens to a gateway notification (the views above keep what the constructor listens to). */
  onNotification<P>(type: protocol.NotificationType<P>, handler: (params: NoInfer<P>) => void): vscode.Disposable {
    return this.client.onNotification(type.method, handler);
  }

  /** Answers a request the gateway sends to the extension (one handler per method). */
  onRequest<P, R>(
    type: protocol.RequestType<P, R>,
    handler: (params: NoInfer<P>, token: vscode.CancellationToken) => Promise<NoInfer<R>>,
  ): vscode.Disposable {
    return this.client.onRequest(
      type.method,
      (params: P, token: vscode.CancellationToken) => handler(params, token) as Promise<unknown>,
    );
  }

  /** Thumbs up (1), down (-1) or none (0) on a call; the ranking learns from it. */
  rate(id: string, rating: ActivityRating): Promise<ActivityRated> {
    return this.request(protocol.rateActivity, { id, rating });
  }

  /** The MCP endpoint, once served. Its token is masked in every log line from now on. */
  async endpoint(token?: vscode.CancellationToken): Promise<Endpoint> {
    const endpoint = await this.request(protocol.getEndpoint, null, token);
    this.secrets.add(endpoint.token);
    this.lastEndpoint = endpoint;
    return endpoint;
  }

  power(name: string): PowerInfo | undefined {
    return this.powers.find((power) => power.name === name);
  }

  /** Asks for everything again, after a (re)start: notifications sent before we listened are not lost. */
  async refresh(): Promise<void> {
    try {
      const status = await this.request(protocol.getStatus, null);
      const powers = await this.request(protocol.listPowers, null);
      // Powers first: a ready status with no powers yet would flash the "no powers" welcome.
      this.setPowers(powers);
      this.setStatus(status);
      const [hints, stats, tokens] = await Promise.all([
        this.request(protocol.getHints, { scope: 'active' }),
        this.request(protocol.getRecommendationStats, null),
        this.request(protocol.getTokenReport, null),
      ]);
      this.setHints(hints);
      this.setRecommendationStats(stats);
      this.setTokenReport(tokens);
      this.connectedEmitter.fire();
    } catch (error) {
      this.channel.warn(`could not read the gateway's state: ${(error as Error).message}`);
    }
  }

  private setHints(payload: HintsPayload): void {
    this.hints = payload;
    this.hintsEmitter.fire(payload);
  }

  private setRecommendationStats(stats: RecommendationStats): void {
    this.recommendationStats = stats;
    this.statsEmitter.fire(stats);
  }

  private setTokenReport(report: TokenReportInfo): void {
    this.tokenReport = report;
    this.tokensEmitter.fire(report);
  }

  private setStatus(status: GatewayStatus): void {
    this.status = status;
    this.statusEmitter.fire(status);
  }

  private setPowers(payload: PowersPayload): void {
    this.powers = payload.powers;
    this.issues = payload.issues;
    this.powersEmitter.fire(payload.powers);
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
  }
}
