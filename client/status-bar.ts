/**
 * The status bar items: active powers and gateway health (a click opens the dashboard), and, while the
 * semantic model is unavailable, "lexical only" (a click runs Download Semantic Model).
 */
import * as vscode from 'vscode';
import type { GatewayClient } from './gateway-client.js';
import { matchingItemModel, statusBarModel } from './status-model.js';

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
  const matching = vscode.window.createStatusBarItem('grimoire.matching', vscode.StatusBarAlignment.Right, 99);
  matching.name = 'Grimoire matching';
  const renderMatching = () => {
    const model = matchingItemModel(gateway.status);
    if (!model) return matching.hide();
    matching.text = model.text;
    matching.tooltip = model.tooltip;
    matching.command = model.command;
    matching.show();
  };
  renderMatching();
  const subscriptions = [gateway.onDidChangeStatus(render), gateway.onDidChangeStatus(renderMatching)];
  return vscode.Disposable.from(...subscriptions, item, matching);
}
