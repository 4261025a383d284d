/**
 * Grimoire's extension host side. Activation only registers things and starts the gateway process
 * without waiting for it; the timings below are logged and returned to callers (the extension tests).
 */
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type {
  ActivityFilterInfo,
  ActivityInfo,
  LoadIssueInfo,
  PowerInfo,
  TokenReportInfo,
} from '../protocol/records.js';
import { registerActivityCommands } from './activity-commands.js';
import { ActivityView } from './activity-view.js';
import { registerCommands } from './commands.js';
import { openWalkthroughOnce, WALKTHROUGH_DELAY_MS, WALKTHROUGH_ID } from './first-run.js';
import { registerModelCommands } from './model-commands.js';
import { registerAdoption } from './adoption.js';
import { registerLaunchApproval } from './launch-approval.js';
import { Dashboard } from './dashboard.js';
import { GatewayClient } from './gateway-client.js';
import { HintsView } from './hints-view.js';
import { LanguageModelLender } from './language-model.js';
import { GatewayMcpProvider, MCP_PROVIDER_ID } from './mcp-provider.js';
import { PowersTreeProvider } from './powers-tree.js';
import { trackGatewayContext } from './context-keys.js';
import { createStatusBar } from './status-bar.js';
import { Timings, type TimingsSnapshot } from './timings.js';
import { reviewBadge, ToolReview } from './tool-review.js';
import { ReadReview } from './tool-review-reads.js';

/** What activate() returns: measurements, for the extension tests and anyone curious. */
export interface GrimoireApi {
  timings(): TimingsSnapshot;
  /** Times onDidChangeMcpServerDefinitions fired (the gateway came back on a new endpoint). */
  mcpDefinitionChanges(): number;
  /** Times VS Code's MCP server was started again after a gateway restart. */
  mcpRestarts(): number;
  /** The powers as the gateway last pushed them. */
  powers(): readonly PowerInfo[];
  /** The configuration problems as the gateway last pushed them (the Powers tree lists them). */
  issues(): readonly LoadIssueInfo[];
  /** The calls the Activity view lists now (newest first) and its filter. */
  activity(): { entries: readonly ActivityInfo[]; filter: ActivityFilterInfo };
  /** Whether this activation asked VS Code to open the walkthrough (the first one after installing does). */
  walkthroughOpened(): Promise<{ asked: boolean }>;
  /** The token report as the gateway last pushed it. */
  tokenReport(): TokenReportInfo | undefined;
}

/** Set by the bundle's first line (tools/packaging/bundle.ts); absent when not bundled. */
declare const __grimoireLoadStart: number | undefined;

let gateway: GatewayClient | undefined;

export function activate(context: vscode.ExtensionContext): GrimoireApi {
  const timings = new Timings(performance.now());
  if (typeof __grimoireLoadStart === 'number') timings.setLoadStart(__grimoireLoadStart);
  const channel = vscode.window.createOutputChannel('Grimoire', { log: true });
  gateway = new GatewayClient(context, channel);
  const client = gateway;
  const dashboard = new Dashboard(context, client);
  const toolReview = new ToolReview(client);
  const powersTree = new PowersTreeProvider(client, toolReview);
  const powersView = vscode.window.createTreeView('grimoire.powers', {
    treeDataProvider: powersTree,
    showCollapseAll: true,
  });
  const version = String(context.extension.packageJSON.version ?? '0.0.0');
  const mcpProvider = new GatewayMcpProvider(client, version, context.extension.id);
  const activityView = new ActivityView(client, context.workspaceState);
  context.subscriptions.push(
    channel,
    client,
    dashboard,
    powersTree,
    mcpProvider,
    toolReview,
    powersView,
    reviewBadge(powersView, toolReview),
    new ReadReview(client, context.globalState),
    activityView,
    new HintsView(client),
    new LanguageModelLender(context, client),
    vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, mcpProvider),
    createStatusBar(client),
    trackGatewayContext(client),
    ...registerCommands(client, dashboard),
    ...registerActivityCommands(client, activityView),
    ...registerModelCommands(client),
    ...registerAdoption(client, context.workspaceState),
    ...registerLaunchApproval(client),
  );

  const ready = client.onDidChangeStatus((status) => {
    if (status.health === 'ready' && timings.mark('gatewayReady', performance.now())) {
      channel.info(timings.describe());
      ready.dispose();
    }
  });
  context.subscriptions.push(ready);
  client.start().then(
    () => timings.mark('serverInitialized', performance.now()),
    (error: Error) => channel.error(`the gateway process did not start: ${error.message}`),
  );
  // After the gateway's first start and VS Code's registration of the walkthrough (first-run.ts).
  const walkthroughId = `${context.extension.id}#${WALKTHROUGH_ID}`;
  const walkthrough = Promise.all([
    settled(client),
    new Promise((resolve) => setTimeout(resolve, WALKTHROUGH_DELAY_MS)),
  ])
    .then(() =>
      openWalkthroughOnce(context.globalState, () =>
        vscode.commands.executeCommand('workbench.action.openWalkthrough', walkthroughId, false),
      ),
    )
    .then((asked) => {
      if (asked) channel.info(`asked VS Code to open the walkthrough ${walkthroughId} (once; Help > Welcome lists it)`);
      return { asked };
    })
    .catch((error: Error) => {
      channel.warn(`the walkthrough did not open: ${error.message}`);
      return { asked: true };
    });
  timings.mark('activated', performance.now());
  const { loadMs, activatedMs } = timings.snapshot();
  channel.info(`activated in ${activatedMs} ms${loadMs !== undefined ? ` (code loaded in ${loadMs} ms)` : ''}`);
  return {
    timings: () => timings.snapshot(),
    mcpDefinitionChanges: () => mcpProvider.changeCount,
    mcpRestarts: () => mcpProvider.restartCount,
    powers: () => client.powers,
    issues: () => client.issues,
    activity: () => ({ entries: activityView.entries, filter: activityView.filter }),
    walkthroughOpened: () => walkthrough,
    tokenReport: () => client.tokenReport,
  };
}

/** Once the gateway is ready or has failed (the first start takes a few seconds). */
function settled(client: GatewayClient): Promise<void> {
  return new Promise((resolve) => {
    const done = (status: { health: string }) => {
      if (status.health !== 'ready' && status.health !== 'failed') return false;
      listener.dispose();
      resolve();
      return true;
    };
    const listener = client.onDidChangeStatus(done);
    done(client.status);
  });
}

export async function deactivate(): Promise<void> {
  await gateway?.stop();
  gateway = undefined;
}
