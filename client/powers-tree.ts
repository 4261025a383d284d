/** The sidebar's Powers tree: powers, their tools, and configuration problems; refreshed by gateway notifications. */
import * as vscode from 'vscode';
import type { LoadIssueInfo, PowerInfo, ToolInfo } from '../protocol/records.js';
import type { GatewayClient } from './gateway-client.js';
import { toTreeItem } from './tree-item.js';
import { issueItem, powerItem, toolItem } from './tree-items.js';
import { reviewItem } from './tool-review-items.js';
import type { ToolReview } from './tool-review.js';

export type PowerNode =
  | { kind: 'power'; power: PowerInfo }
  | { kind: 'tool'; power: PowerInfo; tool: ToolInfo }
  | { kind: 'issue'; issue: LoadIssueInfo }
  | { kind: 'review' };

export class PowersTreeProvider implements vscode.TreeDataProvider<PowerNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly gateway: GatewayClient,
    private readonly toolReview?: ToolReview,
  ) {
    this.subscriptions = [gateway.onDidChangePowers(() => this.changed.fire()), this.changed];
    if (toolReview) this.subscriptions.push(toolReview.onDidChangeReviews(() => this.changed.fire()));
  }

  getChildren(node?: PowerNode): PowerNode[] {
    if (!node) {
      return [
        ...(this.toolReview?.reviews.length ? [{ kind: 'review' } as PowerNode] : []),
        ...this.gateway.powers.map((power): PowerNode => ({ kind: 'power', power })),
        ...this.gateway.issues.map((issue): PowerNode => ({ kind: 'issue', issue })),
      ];
    }
    if (node.kind === 'power')
      return node.power.tools.map((tool): PowerNode => ({ kind: 'tool', power: node.power, tool }));
    return [];
  }

  getTreeItem(node: PowerNode): vscode.TreeItem {
    switch (node.kind) {
      case 'power':
        return toTreeItem(powerItem(node.power));
      case 'tool':
        return toTreeItem(toolItem(node.power, node.tool));
      case 'issue':
        return toTreeItem(issueItem(node.issue), {
          command: 'vscode.open',
          title: 'Open',
          arguments: [vscode.Uri.file(node.issue.file)],
        });
      case 'review':
        return toTreeItem(reviewItem(this.toolReview?.reviews ?? []), {
          command: 'grimoire.reviewToolChanges',
          title: 'Review changes',
        });
    }
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}
