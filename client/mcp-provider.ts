/**
 * The gateway as one MCP server for Copilot agent mode: an HTTP definition on the loopback endpoint with
 * its bearer token. `resolveMcpServerDefinition` waits until the gateway serves.
 *
 * A restarted gateway serves the same URL and token where it can, so the definition rarely changes;
 * `onDidChangeMcpServerDefinitions` fires only when it does (VS Code 1.101+ then stops a running server
 * whose definition changed and leaves it stopped until something starts it). Either way VS Code's
 * connection is to a process that is gone, so once the new process serves, a server VS Code had started
 * is stopped and started again here (see McpRestarter).
 */
import * as vscode from 'vscode';
import type { GatewayStatus } from '../protocol/records.js';
import { authorizationHeaders, EndpointTracker } from './endpoint-tracker.js';
import type { GatewayClient } from './gateway-client.js';
import { McpRestarter } from './mcp-restarter.js';

export const MCP_PROVIDER_ID = 'grimoire.gateway';
export const MCP_SERVER_LABEL = 'Grimoire';
/** Before the first endpoint is known; never started: resolve replaces it. */
const PLACEHOLDER_URI = 'http://127.0.0.1/mcp';

export class GatewayMcpProvider
  implements vscode.McpServerDefinitionProvider<vscode.McpHttpServerDefinition>, vscode.Disposable
{
  private readonly tracker = new EndpointTracker();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this.changed.event;
  /** How often VS Code was told the definition changed (a restarted gateway on a new address or token). */
  changeCount = 0;
  private readonly subscription: vscode.Disposable;
  /** Which gateway process and endpoint version was last handled (`generation:endpointVersion`). */
  private handled?: string;
  /** The serving VS Code's connection was made to (same key form): nothing to restart for it. */
  private connectedTo?: string;
  private readonly restarter: McpRestarter;

  constructor(
    private readonly gateway: GatewayClient,
    private readonly version: string,
    extensionId: string,
  ) {
    this.restarter = new McpRestarter(`${extensionId}/${MCP_SERVER_LABEL}`, gateway.channel);
    this.subscription = gateway.onDidChangeStatus((status) => this.onStatus(status));
  }

  /** How often VS Code's MCP server was started again after a gateway restart. */
  get restartCount(): number {
    return this.restarter.count;
  }

  provideMcpServerDefinitions(): vscode.McpHttpServerDefinition[] {
    const endpoint = this.tracker.endpoint;
    if (!endpoint)
      return [
        new vscode.McpHttpServerDefinition(MCP_SERVER_LABEL, vscode.Uri.parse(PLACEHOLDER_URI), {}, this.version),
      ];
    return [
      new vscode.McpHttpServerDefinition(
        MCP_SERVER_LABEL,
        vscode.Uri.parse(endpoint.url),
        authorizationHeaders(endpoint),
        this.version,
      ),
    ];
  }

  async resolveMcpServerDefinition(
    server: vscode.McpHttpServerDefinition,
    token: vscode.CancellationToken,
  ): Promise<vscode.McpHttpServerDefinition> {
    const endpoint = await this.gateway.endpoint(token);
    if (this.tracker.update(endpoint)) this.gateway.channel.info(`MCP endpoint for VS Code: ${endpoint.url}`);
    this.connectedTo = `${this.gateway.generation}:${endpoint.version}`;
    this.restarter.startedByVsCode();
    server.uri = vscode.Uri.parse(endpoint.url);
    server.headers = authorizationHeaders(endpoint);
    return server;
  }

  private onStatus(status: GatewayStatus): void {
    if (status.health !== 'ready') return;
    const key = `${this.gateway.generation}:${status.endpointVersion}`;
    if (key === this.handled) return;
    this.handled = key;
    void this.serving(key);
  }

  /** A gateway process serves (the first, or one after a restart). */
  private async serving(key: string): Promise<void> {
    try {
      const endpoint = await this.gateway.endpoint();
      const first = this.tracker.endpoint === undefined;
      const changed = this.tracker.update(endpoint);
      if (first) return;
      this.gateway.channel.info(
        `MCP endpoint for VS Code: ${endpoint.url}` +
          `${changed ? ' (new: the MCP server definition changed)' : ' (the same as before the restart)'}`,
      );
      if (changed) {
        this.changeCount += 1;
        this.changed.fire();
      }
      // Unless VS Code already connected to this process (it resolved the definition meanwhile).
      if (this.connectedTo !== key) await this.restarter.startAgain(changed);
    } catch (error) {
      this.gateway.channel.warn(`no MCP endpoint: ${(error as Error).message}`);
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
