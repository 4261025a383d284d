/**
 * Asks the user before a server from the workspace or an imported config runs: a modal naming the
 * command, whose default (its first button, Enter, Escape) is not to run. Each launch is asked once
 * per window as it appears; "Review Server Launches..." asks again for every one still waiting.
 */
import * as vscode from 'vscode';
import * as protocol from '../protocol/extension-methods.js';
import type { PowerInfo } from '../protocol/records.js';
import type { GatewayClient } from './gateway-client.js';

const DONT_RUN: vscode.MessageItem = { title: "Don't Run" };
const RUN: vscode.MessageItem = { title: 'Run It' };

type Waiting = PowerInfo & { awaitingLaunch: NonNullable<PowerInfo['awaitingLaunch']> };

/** The question the modal asks, and its detail: where the launch comes from and the command itself. */
export function launchQuestion(power: Waiting): { message: string; detail: string } {
  const { origin, command } = power.awaitingLaunch;
  const from = origin === 'workspace' ? 'This workspace' : 'An imported MCP config';
  return {
    message: `Let Grimoire run the server of '${power.name}'?`,
    detail:
      `${from} (${power.source.file}) names a program for Grimoire to start:\n\n${command}\n\n` +
      'Run it only if you trust this command: it runs with your permissions. If the definition changes, Grimoire asks again.',
  };
}

export function registerLaunchApproval(gateway: GatewayClient): vscode.Disposable[] {
  const asked = new Set<string>();
  const ask = async (power: Waiting): Promise<void> => {
    const { message, detail } = launchQuestion(power);
    const choice = await vscode.window.showWarningMessage(message, { modal: true, detail }, DONT_RUN, RUN);
    if (choice !== RUN) return;
    try {
      await gateway.request(protocol.approveLaunch, { name: power.name, hash: power.awaitingLaunch.hash });
    } catch (error) {
      void vscode.window.showErrorMessage(`Grimoire: '${power.name}' was not approved: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const waiting = () => gateway.powers.filter((power): power is Waiting => power.awaitingLaunch !== undefined);
  const askNew = async () => {
    for (const power of waiting()) {
      const key = `${power.name}\n${power.awaitingLaunch.hash}`;
      if (asked.has(key)) continue;
      asked.add(key);
      await ask(power);
    }
  };
  let queue = Promise.resolve();
  const enqueue = (work: () => Promise<void>) => (queue = queue.then(work).catch(() => undefined));
  return [
    gateway.onDidChangePowers(() => void enqueue(askNew)),
    vscode.commands.registerCommand('grimoire.reviewLaunches', () =>
      enqueue(async () => {
        const all = waiting();
        if (all.length === 0) return void vscode.window.showInformationMessage('Grimoire: no server waits for your approval to run.');
        for (const power of all) await ask(power);
      }),
    ),
  ];
}
