/** "Grimoire: Download Semantic Model": the gateway fetches the model into the data folder, with progress here. */
import * as vscode from 'vscode';
import * as protocol from '../protocol/extension-methods.js';
import type { GatewayClient } from './gateway-client.js';

export function registerModelCommands(gateway: GatewayClient): vscode.Disposable[] {
  return [vscode.commands.registerCommand('grimoire.downloadSemanticModel', (params?: protocol.DownloadModelParams) => downloadSemanticModel(gateway, params ?? {}))];
}

async function downloadSemanticModel(gateway: GatewayClient, params: protocol.DownloadModelParams): Promise<protocol.DownloadOutcome> {
  const outcome = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Grimoire: downloading the semantic model' }, async (progress) => {
    const percents = new Map<string, number>();
    const listening = gateway.onNotification(protocol.modelDownloadProgress, ({ file, percent }) => {
      const before = percents.get(file) ?? 0;
      const now = percent ?? before;
      percents.set(file, now);
      progress.report({ message: `${file}${percent === undefined ? '' : ` ${percent}%`}`, increment: (now - before) / Math.max(1, percents.size) });
    });
    try {
      return await gateway.request(protocol.downloadModel, params);
    } finally {
      listening.dispose();
    }
  });
  if (outcome.ok) {
    gateway.channel.info(`semantic model ${outcome.model} in ${outcome.folder}`);
    void vscode.window.showInformationMessage(`Grimoire: the semantic model is in ${outcome.folder}. Restart the gateway to match requests by meaning as well as by words.`, 'Restart Gateway').then((choice) => {
      if (choice) void gateway.restart();
    });
  } else {
    gateway.channel.warn(outcome.message);
    void vscode.window.showErrorMessage(`Grimoire: ${outcome.message}`, 'Show Log').then((choice) => {
      if (choice) gateway.channel.show(true);
    });
  }
  return outcome;
}
