/**
 * The gateway as one MCP server for Copilot agent mode: an HTTP definition on the loopback endpoint with
 * its bearer token. `resolveMcpServerDefinition` waits until the gateway serves; a restart (new port and
 * token) fires `onDidChangeMcpServerDefinitions`.
 */
import * as vscode from 'vscode';
import { authorizationHeaders, EndpointTracker } from './endpoint-tracker.js';
import type { GatewayClient } from './gateway-client.js';

export const MCP_PROVIDER_ID = 'grimoire.gateway';
export const MCP_SERVER_LABEL = 'Grimoire';
/** Before the first endpoint is known; never started: resolve replaces it. */
const PLACEHOLDER_URI = 'http://127.0.0.1/mcp';

export class GatewayMcpProvider implements vscode.McpServerDefinitionProvider<vscode.McpHttpServerDefinition>, vscode.Disposable {
  private readonly tracker = new EndpointTracker();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this.changed.event;
  /** How often VS Code was told the definition changed (a restarted gateway). */
  changeCount = 0;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly gateway: GatewayClient,
    private readonly version: string,
  ) {
    this.subscription = gateway.onDidChangeStatus((status) => {
      if (this.tracker.isStale(status)) void this.fetchEndpoint();
    });
  }

  provideMcpServerDefinitions(): vscode.McpHttpServerDefinition[] {
    const endpoint = this.tracker.endpoint;
    if (!endpoint) return [new vscode.McpHttpServerDefinition(MCP_SERVER_LABEL, vscode.Uri.parse(PLACEHOLDER_URI), {}, this.version)];
    return [new vscode.McpHttpServerDefinition(MCP_SERVER_LABEL, vscode.Uri.parse(endpoint.url), authorizationHeaders(endpoint), this.version)];
  }

  async resolveMcpServerDefinition(server: vscode.McpHttpServerDefinition, token: vscode.CancellationToken): Promise<vscode.McpHttpServerDefinition> {
    const endpoint = await this.gateway.endpoint(token);
    if (this.tracker.update(endpoint)) this.gateway.channel.info(`MCP endpoint for VS Code: ${endpoint.url}`);
    server.uri = vscode.Uri.parse(endpoint.url);
    server.headers = authorizationHeaders(endpoint);
    return server;
  }

  private async fetchEndpoint(): Promise<void> {
    try {
      const endpoint = await this.gateway.endpoint();
      const first = this.tracker.endpoint === undefined;
      if (this.tracker.update(endpoint)) {
        this.gateway.channel.info(`MCP endpoint for VS Code: ${endpoint.url}${first ? '' : ' (new: the MCP server definition changed)'}`);
        if (!first) {
          this.changeCount += 1;
          this.changed.fire();
        }
      }
    } catch (error) {
      this.gateway.channel.warn(`no MCP endpoint: ${(error as Error).message}`);
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
