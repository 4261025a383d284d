/**
 * Asks the user before a server from the workspace or an imported config runs: a modal naming the
 * command, whose default (its first button, Enter, Escape) is not to run. Launches that appear are
 * announced once per window (a notification offering the review, so a window with many imported
 * servers does not open with a row of dialogs); "Review Server Launches..." asks for each waiting one.
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
  const announced = new Set<string>();
  const ask = async (power: Waiting): Promise<void> => {
    const { message, detail } = launchQuestion(power);
    const choice = await vscode.window.showWarningMessage(message, { modal: true, detail }, DONT_RUN, RUN);
    if (choice !== RUN) return;
    try {
      await gateway.request(protocol.approveLaunch, { name: power.name, hash: power.awaitingLaunch.hash });
    } catch (error) {
      void vscode.window.showErrorMessage(
        `Grimoire: '${power.name}' was not approved: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };
  const waiting = () => gateway.powers.filter((power): power is Waiting => power.awaitingLaunch !== undefined);
  let queue = Promise.resolve();
  const enqueue = (work: () => Promise<void>) => (queue = queue.then(work).catch(() => undefined));
  const review = () =>
    enqueue(async () => {
      const all = waiting();
      if (all.length === 0)
        return void vscode.window.showInformationMessage('Grimoire: no server waits for your approval to run.');
      for (const power of all) await ask(power);
    });
  const announceNew = () => {
    const fresh = waiting().filter((power) => !announced.has(`${power.name}\n${power.awaitingLaunch.hash}`));
    if (fresh.length === 0) return;
    for (const power of fresh) announced.add(`${power.name}\n${power.awaitingLaunch.hash}`);
    const names = fresh.map((power) => `'${power.name}'`).join(', ');
    void vscode.window
      .showWarningMessage(
        `Grimoire: ${names} ${fresh.length === 1 ? 'waits' : 'wait'} for your approval to run (from the ` +
          `workspace or an imported MCP config).`,
        'Review...',
      )
      .then((choice) => {
        if (choice) void review();
      });
  };
  return [gateway.onDidChangePowers(announceNew), vscode.commands.registerCommand('grimoire.reviewLaunches', review)];
}
