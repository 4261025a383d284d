/**
 * The sidebar's Activity view: the last calls through the gateway, newest first, kept live by the
 * gateway's notifications, narrowed by a filter (intent type, status, power) kept in the workspace state.
 */
import * as vscode from 'vscode';
import { ACTIVITY_LIMIT, filterText, isFiltered, withRating, withRecorded } from '../protocol/activity-shared.js';
import * as protocol from '../protocol/extension-methods.js';
import type { ActivityFilterInfo, ActivityInfo, ActivityRating } from '../protocol/records.js';
import { activityItem } from './activity-items.js';
import type { GatewayClient } from './gateway-client.js';
import { toTreeItem } from './tree-item.js';

export const ACTIVITY_VIEW_ID = 'grimoire.activity';
const FILTER_KEY = 'grimoire.activity.filter';
const FILTERED_CONTEXT = 'grimoire.activityFiltered';
const ROW_REDRAW_MS = 1000;

type CallNode = { kind: 'call'; entry: ActivityInfo };
export type ActivityNode = CallNode | { kind: 'no-match' };

export class ActivityView implements vscode.TreeDataProvider<ActivityNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ActivityNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];
  private readonly view: vscode.TreeView<ActivityNode>;
  private filterValue: ActivityFilterInfo;
  entries: ActivityInfo[] = [];
  /** One node per call shown, kept across redraws: VS Code finds a row's element by it. */
  private readonly nodes = new Map<string, CallNode>();
  private loading = Promise.resolve();
  /** Rows redrawn alone whose item VS Code has not asked for yet, with the whole-tree redraw that backs each up. */
  private readonly redraws = new Map<CallNode, NodeJS.Timeout>();

  constructor(
    private readonly gateway: GatewayClient,
    private readonly state: vscode.Memento,
  ) {
    this.filterValue = state.get<ActivityFilterInfo>(FILTER_KEY) ?? {};
    this.view = vscode.window.createTreeView(ACTIVITY_VIEW_ID, { treeDataProvider: this });
    this.subscriptions = [
      this.view,
      this.changed,
      gateway.onDidConnect(() => void this.load()),
      gateway.onDidRecordActivity((entry) =>
        this.update(withRecorded(this.entries, entry, this.filterValue, ACTIVITY_LIMIT)),
      ),
      gateway.onDidRateActivity(({ id, rating }) => this.rated(id, rating)),
    ];
    this.showFilter();
  }

  get filter(): ActivityFilterInfo {
    return this.filterValue;
  }

  /** Replaces the filter and reads the matching calls again. */
  async setFilter(filter: ActivityFilterInfo): Promise<ActivityFilterInfo> {
    this.filterValue = Object.fromEntries(
      Object.entries(filter).filter(([, value]) => value !== undefined && value !== ''),
    ) as ActivityFilterInfo;
    await this.state.update(FILTER_KEY, this.filterValue);
    this.showFilter();
    await this.load();
    return this.filterValue;
  }

  /** Reads the last calls matching the filter from the gateway; resolves once the view has them. */
  load(): Promise<void> {
    const filter = this.filterValue;
    this.loading = this.loading.then(async () => {
      try {
        const page = await this.gateway.request(protocol.listActivity, { ...filter, limit: ACTIVITY_LIMIT });
        if (filter === this.filterValue) this.update(page.entries);
      } catch (error) {
        this.gateway.channel.warn(`could not read the activity log: ${(error as Error).message}`);
      }
    });
    return this.loading;
  }

  private update(entries: ActivityInfo[]): void {
    if (entries === this.entries) return;
    this.entries = entries;
    this.changed.fire(undefined);
  }

  /**
   * Redraws the rated row alone. Redrawing the whole tree would make VS Code forget every row's
   * element until it has asked for the rows again, and a thumb clicked meanwhile would come without its call.
   */
  private rated(id: string, rating: ActivityRating): void {
    this.entries = withRating(this.entries, id, rating);
    const node = this.nodes.get(id);
    const entry = this.entries.find((e) => e.id === id);
    if (!node || !entry) return;
    node.entry = entry;
    this.redrawRow(node);
  }

  /**
   * VS Code drops a one-row redraw without a word when the row's element is not in its map, as
   * during a whole-tree redraw it has not fetched yet. It asks for the row's item when it does
   * redraw it; if it has not within ROW_REDRAW_MS, the whole tree is redrawn instead.
   */
  private redrawRow(node: CallNode): void {
    clearTimeout(this.redraws.get(node));
    this.redraws.set(
      node,
      setTimeout(() => {
        this.redraws.delete(node);
        this.gateway.channel.debug(
          `the Activity view's row for call ${node.entry.id} was not redrawn: redrawing the view`,
        );
        this.changed.fire(undefined);
      }, ROW_REDRAW_MS),
    );
    this.changed.fire(node);
  }

  private showFilter(): void {
    const text = filterText(this.filterValue);
    this.view.description = text || undefined;
    void vscode.commands.executeCommand('setContext', FILTERED_CONTEXT, isFiltered(this.filterValue));
  }

  getChildren(node?: ActivityNode): ActivityNode[] {
    if (node) return [];
    if (this.entries.length === 0) return isFiltered(this.filterValue) ? [{ kind: 'no-match' }] : [];
    const ids = new Set(this.entries.map((entry) => entry.id));
    for (const id of this.nodes.keys()) if (!ids.has(id)) this.nodes.delete(id);
    return this.entries.map((entry) => {
      const node = this.nodes.get(entry.id) ?? { kind: 'call', entry };
      node.entry = entry;
      this.nodes.set(entry.id, node);
      return node;
    });
  }

  getTreeItem(node: ActivityNode): vscode.TreeItem {
    if (node.kind === 'no-match') {
      return toTreeItem(
        {
          id: 'activity:no-match',
          label: 'No calls match the filter',
          description: filterText(this.filterValue),
          tooltip: 'Click to show every call.',
          contextValue: 'grimoire.activity.noMatch',
          icon: { id: 'filter' },
          collapsible: false,
        },
        { command: 'grimoire.clearActivityFilter', title: 'Clear Filter' },
      );
    }
    clearTimeout(this.redraws.get(node));
    this.redraws.delete(node);
    return toTreeItem(activityItem(node.entry));
  }

  dispose(): void {
    for (const timer of this.redraws.values()) clearTimeout(timer);
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}
