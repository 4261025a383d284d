/**
 * The dashboard panel: the gateway's state and the resolve playground (webview/). The webview keeps its
 * state across hide and reload (setState + the serializer); the last query is also kept in the
 * workspace state, so a closed panel opens again where it was.
 */
import * as vscode from 'vscode';
import * as protocol from '../server/rpc/protocol.js';
import type { DashboardRequest, DashboardState, DashboardUpdate } from '../server/rpc/protocol.js';
import { dashboardHtml } from './dashboard-html.js';
import type { GatewayClient } from './gateway-client.js';

export const DASHBOARD_VIEW_TYPE = 'grimoire.dashboard';
const STATE_KEY = 'grimoire.dashboard.state';

export class Dashboard implements vscode.Disposable {
  private panel?: vscode.WebviewPanel;
  private panelSubscriptions: vscode.Disposable[] = [];
  private readonly registration: vscode.Disposable;

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
  }

  get isOpen(): boolean {
    return this.panel !== undefined;
  }

  show(): void {
    if (this.panel) {
      this.panel.reveal();
      return;
    }
    const panel = vscode.window.createWebviewPanel(DASHBOARD_VIEW_TYPE, 'Grimoire', vscode.ViewColumn.Active, this.webviewOptions());
    this.attach(panel);
  }

  private webviewOptions(): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(this.context.extensionUri, 'dist', 'webview')] };
  }

  private attach(panel: vscode.WebviewPanel): void {
    this.panel = panel;
    const webview = panel.webview;
    webview.options = this.webviewOptions();
    panel.iconPath = vscode.Uri.joinPath(this.context.extensionUri, 'client', 'media', 'grimoire.svg');
    const asset = (file: string) => webview.asWebviewUri(vscode.Uri.joinPath(this.context.extensionUri, 'dist', 'webview', file)).toString();
    webview.html = dashboardHtml({ cspSource: webview.cspSource, scriptUri: asset('dashboard.js'), styleUri: asset('dashboard.css') });
    const pushGateway = () => this.post({ type: 'gateway', status: this.gateway.status, powers: this.gateway.powers });
    this.panelSubscriptions = [
      webview.onDidReceiveMessage((message: DashboardRequest) => void this.handle(message)),
      this.gateway.onDidChangeStatus(pushGateway),
      this.gateway.onDidChangePowers(pushGateway),
      panel.onDidDispose(() => {
        for (const subscription of this.panelSubscriptions) subscription.dispose();
        this.panelSubscriptions = [];
        this.panel = undefined;
      }),
    ];
  }

  private async handle(message: DashboardRequest): Promise<void> {
    switch (message.type) {
      case 'ready':
        this.post({ type: 'restore', state: this.context.workspaceState.get<DashboardState>(STATE_KEY) ?? { query: '' } });
        this.post({ type: 'gateway', status: this.gateway.status, powers: this.gateway.powers });
        return;
      case 'resolve':
        try {
          const result = await this.gateway.request(protocol.resolveIntent, { query: message.query });
          await this.saveState({ query: message.query, result });
          this.post({ type: 'resolved', result });
        } catch (error) {
          this.post({ type: 'failed', action: 'resolve', message: (error as Error).message });
        }
        return;
      case 'activate':
      case 'deactivate':
        try {
          const type = message.type === 'activate' ? protocol.activatePower : protocol.deactivatePower;
          await this.gateway.request(type, { name: message.name });
        } catch (error) {
          this.post({ type: 'failed', action: message.type, message: (error as Error).message });
        }
        return;
    }
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
