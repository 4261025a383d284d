/**
 * Starts VS Code's Grimoire MCP server again after the gateway restarted, when VS Code had it running.
 * Uses VS Code's own MCP commands (`workbench.mcp.stopServer` / `startServer`, present since 1.101 but
 * not a public API): where they are missing, the server starts on the agent's next request instead.
 */
import * as vscode from 'vscode';

/** VS Code re-reads changed definitions on a 500 ms throttle; start after it has. */
const AFTER_DEFINITION_CHANGE_MS = 1000;

export class McpRestarter {
  private started = false;
  /** Times the server was started again. */
  count = 0;

  constructor(
    private readonly serverId: string,
    private readonly channel: vscode.LogOutputChannel,
  ) {}

  /** VS Code resolved the definition: it is starting the server. */
  startedByVsCode(): void {
    this.started = true;
  }

  async startAgain(definitionChanged: boolean): Promise<void> {
    if (!this.started) return;
    try {
      if (definitionChanged) await new Promise((resolve) => setTimeout(resolve, AFTER_DEFINITION_CHANGE_MS));
      // Its session belonged to the process that is gone: a fresh start opens a new one.
      await vscode.commands.executeCommand('workbench.mcp.stopServer', this.serverId);
      await vscode.commands.executeCommand('workbench.mcp.startServer', this.serverId, { waitForLiveTools: true });
      this.count += 1;
      this.channel.info("VS Code's Grimoire MCP server was started again after the gateway restart");
    } catch (error) {
      this.channel.debug(
        `could not start VS Code's MCP server again (${(error as Error).message}): it starts with the agent's next request`,
      );
    }
  }
}
