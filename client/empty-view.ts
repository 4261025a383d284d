/**
 * A sidebar list with nothing to show yet: VS Code then shows the view's `viewsWelcome` text.
 * Activity (tool calls) and Hints get their data from later parts of the gateway.
 */
import type * as vscode from 'vscode';

export class EmptyListProvider implements vscode.TreeDataProvider<never> {
  getChildren(): never[] {
    return [];
  }

  getTreeItem(element: never): vscode.TreeItem {
    return element;
  }
}
