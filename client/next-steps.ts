/**
 * What a command says when it has nothing to offer, and the next step it offers instead: an empty
 * picker explains why (the gateway is starting, there are no powers, every power is active) and
 * leads on. Also the failed-activation toast, with a way to the spell file.
 */
import * as vscode from 'vscode';
import type { PowerInfo } from '../protocol/records.js';
import type { GatewayClient } from './gateway-client.js';
import { nothingToPickText, type PickPurpose } from './picks.js';

const NEW_SPELL = 'New Spell File...';
const DEMO = 'Try the Demo Powers';
const OUTPUT = 'Show Output';
const ACTIVATE = 'Activate Power...';

/** Tells why there is nothing to pick and runs the next step the user chooses. */
export async function explainNothingToPick(gateway: GatewayClient, purpose: PickPurpose): Promise<void> {
  const text = nothingToPickText(gateway.status, gateway.powers, purpose);
  const actions =
    gateway.status.health !== 'ready'
      ? [OUTPUT]
      : gateway.powers.length === 0
        ? [NEW_SPELL, DEMO]
        : purpose === 'deactivate'
          ? [ACTIVATE]
          : [];
  const chosen = await vscode.window.showInformationMessage(`Grimoire: ${text}`, ...actions);
  if (chosen === NEW_SPELL) await vscode.commands.executeCommand('grimoire.newSpellFile');
  if (chosen === DEMO)
    await vscode.workspace.getConfiguration('grimoire').update('demoPowers', true, vscode.ConfigurationTarget.Global);
  if (chosen === OUTPUT) gateway.channel.show(true);
  if (chosen === ACTIVATE) await vscode.commands.executeCommand('grimoire.activatePower');
}

/** A power that failed to start: the error, with its spell file and the log one click away. */
export async function showActivationFailure(
  gateway: GatewayClient,
  name: string,
  message: string,
  power: PowerInfo | undefined,
): Promise<void> {
  const canOpen = !!power && power.source.file !== '';
  const chosen = await vscode.window.showErrorMessage(
    `Grimoire: '${name}' did not start: ${message}`,
    ...(canOpen ? ['Open Spell File'] : []),
    OUTPUT,
  );
  if (chosen === 'Open Spell File') await vscode.commands.executeCommand('grimoire.openSpellFile', name);
  if (chosen === OUTPUT) gateway.channel.show(true);
}
