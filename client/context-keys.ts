/** Context keys for `when` clauses (the Powers view's welcome text): the gateway's health, set before it first answers. */
import * as vscode from 'vscode';
import type { GatewayClient } from './gateway-client.js';

export const GATEWAY_CONTEXT = 'grimoire.gateway';

export function trackGatewayContext(gateway: GatewayClient): vscode.Disposable {
  const set = () => void vscode.commands.executeCommand('setContext', GATEWAY_CONTEXT, gateway.status.health);
  set();
  return gateway.onDidChangeStatus(set);
}
