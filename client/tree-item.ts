/** An item model (tree-items.ts and friends, no `vscode` there) made into a VS Code TreeItem. */
import * as vscode from 'vscode';
import type { ItemModel } from './tree-items.js';

export function toTreeItem(model: ItemModel, command?: vscode.Command, expanded = false): vscode.TreeItem {
  const state = !model.collapsible
    ? vscode.TreeItemCollapsibleState.None
    : expanded
      ? vscode.TreeItemCollapsibleState.Expanded
      : vscode.TreeItemCollapsibleState.Collapsed;
  const item = new vscode.TreeItem(model.label, state);
  item.id = model.id;
  item.description = model.description;
  item.tooltip = model.tooltip;
  item.contextValue = model.contextValue;
  item.iconPath = new vscode.ThemeIcon(
    model.icon.id,
    model.icon.color ? new vscode.ThemeColor(model.icon.color) : undefined,
  );
  if (command) item.command = command;
  return item;
}
