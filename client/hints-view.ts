/** The sidebar's Hints view: the active powers' hint network (declared and learned, with follow rates) and the hints fired lately, live. */
import * as vscode from 'vscode';
import type { GatewayClient } from './gateway-client.js';
import { hintChildren, hintItem, type HintNode } from './hint-items.js';
import { toTreeItem } from './tree-item.js';

export const HINTS_VIEW_ID = 'grimoire.hints';

export class HintsView implements vscode.TreeDataProvider<HintNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly gateway: GatewayClient) {
    this.subscriptions = [
      vscode.window.createTreeView(HINTS_VIEW_ID, { treeDataProvider: this, showCollapseAll: true }),
      this.changed,
      gateway.onDidChangeHints(() => this.changed.fire()),
    ];
  }

  getChildren(node?: HintNode): HintNode[] {
    return hintChildren(this.gateway.hints, node);
  }

  getTreeItem(node: HintNode): vscode.TreeItem {
    const payload = this.gateway.hints!;
    // The two groups and the powers open at once; tools open on demand.
    const expanded = node.kind === 'network' || node.kind === 'recent' || node.kind === 'power';
    return toTreeItem(hintItem(payload, node), undefined, expanded);
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}
