/** The status bar item: active powers and gateway health; a click opens the dashboard. */
import * as vscode from 'vscode';
import type { GatewayClient } from './gateway-client.js';
import { statusBarModel } from './status-model.js';

export function createStatusBar(gateway: GatewayClient): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('grimoire.status', vscode.StatusBarAlignment.Right, 100);
  item.name = 'Grimoire';
  item.command = 'grimoire.openDashboard';
  const render = () => {
    const model = statusBarModel(gateway.status);
    item.text = model.text;
    item.tooltip = model.tooltip;
    item.backgroundColor = model.error
      ? new vscode.ThemeColor('statusBarItem.errorBackground')
      : model.warning
        ? new vscode.ThemeColor('statusBarItem.warningBackground')
        : undefined;
  };
  render();
  item.show();
  const subscription = gateway.onDidChangeStatus(render);
  return vscode.Disposable.from(subscription, item);
}
