/**
 * "Grimoire: Download Semantic Model": the gateway fetches the model into the data folder, with
 * progress here. Run from the palette or the "lexical only" item, it first asks where from: Hugging
 * Face, a mirror, or a folder on this machine; called with parameters, it asks nothing.
 */
import * as vscode from 'vscode';
import * as protocol from '../protocol/extension-methods.js';
import type { GatewayClient } from './gateway-client.js';
import { folderParams, MODEL_SOURCES, mirrorParams, mirrorProblem } from './model-source.js';

export function registerModelCommands(gateway: GatewayClient): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('grimoire.downloadSemanticModel', async (params?: protocol.DownloadModelParams) => {
      const chosen = params ?? (await chooseSource());
      return chosen ? downloadSemanticModel(gateway, chosen) : undefined;
    }),
  ];
}

/** Where from, as the user picks it; undefined when they dismiss a step. */
async function chooseSource(): Promise<protocol.DownloadModelParams | undefined> {
  const pick = await vscode.window.showQuickPick(
    MODEL_SOURCES.map((choice) => ({ label: choice.label, detail: choice.detail, source: choice.source })),
    { title: 'Grimoire: Download Semantic Model', placeHolder: 'Where should the model come from?' },
  );
  if (!pick) return undefined;
  if (pick.source === 'huggingface') return {};
  if (pick.source === 'mirror') {
    const input = await vscode.window.showInputBox({
      title: 'Grimoire: the mirror to download the model from',
      prompt: 'The address of a server laid out like https://huggingface.co/',
      placeHolder: 'https://hf-mirror.example.com/',
      ignoreFocusOut: true,
      validateInput: (value) => mirrorProblem(value),
    });
    return input === undefined ? undefined : mirrorParams(input);
  }
  const folder = await vscode.window.showOpenDialog({
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: false,
    openLabel: 'Use This Model Folder',
    title: 'Grimoire: the folder holding the model files',
  });
  return folder?.[0] ? folderParams(folder[0].fsPath) : undefined;
}

async function downloadSemanticModel(
  gateway: GatewayClient,
  params: protocol.DownloadModelParams,
): Promise<protocol.DownloadOutcome> {
  const outcome = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Grimoire: downloading the semantic model' },
    async (progress) => {
      const percents = new Map<string, number>();
      const listening = gateway.onNotification(protocol.modelDownloadProgress, ({ file, percent }) => {
        const before = percents.get(file) ?? 0;
        const now = percent ?? before;
        percents.set(file, now);
        progress.report({
          message: `${file}${percent === undefined ? '' : ` ${percent}%`}`,
          increment: (now - before) / Math.max(1, percents.size),
        });
      });
      try {
        return await gateway.request(protocol.downloadModel, params);
      } finally {
        listening.dispose();
      }
    },
  );
  if (outcome.ok) {
    gateway.channel.info(`semantic model ${outcome.model} in ${outcome.folder}`);
    void vscode.window
      .showInformationMessage(
        `Grimoire: the semantic model is in ${outcome.folder}. Restart the gateway to match requests by meaning as well as by words.`,
        'Restart Gateway',
      )
      .then((choice) => {
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
