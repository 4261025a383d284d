/**
 * The dashboard panel (webview/): the gateway's state, the resolve playground with "why this power",
 * the activity log with filters and ratings, recommendation quality, the hint network graph and the
 * token savings, all kept live by the gateway's notifications. The webview keeps its state across
 * hide and reload (setState + the serializer); the query and filters are also kept in the workspace
 * state, so a closed panel opens again where it was.
 */
import * as vscode from 'vscode';
import type { DashboardRequest, DashboardState, DashboardUpdate } from '../protocol/dashboard-messages.js';
import { dashboardHtml } from './dashboard-html.js';
import { handleDashboardRequest, postHints, postInsights, type DashboardContext } from './dashboard-requests.js';
import type { GatewayClient } from './gateway-client.js';

export const DASHBOARD_VIEW_TYPE = 'grimoire.dashboard';
const STATE_KEY = 'grimoire.dashboard.state';

export class Dashboard implements vscode.Disposable {
  private panel?: vscode.WebviewPanel;
  private panelSubscriptions: vscode.Disposable[] = [];
  private readonly registration: vscode.Disposable;
  private readonly requests: DashboardContext;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly gateway: GatewayClient,
  ) {
    this.registration = vscode.window.registerWebviewPanelSerializer(DASHBOARD_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel, state: unknown) => {
        if (isDashboardState(state)) await this.saveState(state);
        this.attach(panel);
      },
    });
    this.requests = {
      gateway,
      post: (update) => this.post(update),
      state: () => this.context.workspaceState.get<DashboardState>(STATE_KEY) ?? { query: '' },
      saveState: (patch) => this.saveState({ ...this.requests.state(), ...patch }),
    };
  }

  get isOpen(): boolean {
    return this.panel !== undefined;
  }

  show(): void {
    if (this.panel) {
      this.panel.reveal();
      return;
    }
    const panel = vscode.window.createWebviewPanel(
      DASHBOARD_VIEW_TYPE,
      'Grimoire',
      vscode.ViewColumn.Active,
      this.webviewOptions(),
    );
    this.attach(panel);
  }

  private webviewOptions(): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    return {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(this.context.extensionUri, 'dist', 'webview')],
    };
  }

  private attach(panel: vscode.WebviewPanel): void {
    this.panel = panel;
    const webview = panel.webview;
    webview.options = this.webviewOptions();
    panel.iconPath = vscode.Uri.joinPath(this.context.extensionUri, 'client', 'media', 'grimoire.svg');
    const asset = (file: string) =>
      webview.asWebviewUri(vscode.Uri.joinPath(this.context.extensionUri, 'dist', 'webview', file)).toString();
    webview.html = dashboardHtml({
      cspSource: webview.cspSource,
      scriptUri: asset('dashboard.js'),
      styleUri: asset('dashboard.css'),
    });
    const gateway = this.gateway;
    const pushGateway = () =>
      this.post({ type: 'gateway', status: gateway.status, powers: gateway.powers, issues: gateway.issues });
    this.panelSubscriptions = [
      webview.onDidReceiveMessage((message: DashboardRequest) => void handleDashboardRequest(this.requests, message)),
      gateway.onDidChangeStatus(pushGateway),
      gateway.onDidChangePowers(pushGateway),
      gateway.onDidConnect(() => void postInsights(this.requests, true)),
      gateway.onDidRecordActivity((entry) => this.post({ type: 'activityRecorded', entry })),
      gateway.onDidRateActivity((rated) => this.post({ type: 'activityRated', rated })),
      gateway.onDidChangeRecommendationStats((stats) => this.post({ type: 'recommendations', stats })),
      gateway.onDidChangeTokenReport((report) => this.post({ type: 'tokens', report })),
      gateway.onDidChangeHints(() => void postHints(this.requests).catch(() => undefined)),
      panel.onDidDispose(() => {
        for (const subscription of this.panelSubscriptions) subscription.dispose();
        this.panelSubscriptions = [];
        this.panel = undefined;
      }),
    ];
  }

  private post(update: DashboardUpdate): void {
    void this.panel?.webview.postMessage(update);
  }

  private saveState(state: DashboardState): Thenable<void> {
    return this.context.workspaceState.update(STATE_KEY, state);
  }

  dispose(): void {
    this.registration.dispose();
    this.panel?.dispose();
  }
}

function isDashboardState(value: unknown): value is DashboardState {
  return typeof value === 'object' && value !== null && typeof (value as DashboardState).query === 'string';
}
