/**
 * The tool review in VS Code: a notification when tools are held back, the "Review changes" item and
 * a badge on the Powers view, VS Code's diff editor on the approved and the offered version
 * (grimoire-review: documents), and approve / keep blocked.
 */
import * as vscode from 'vscode';
import * as protocol from '../protocol/extension-methods.js';
import type { ToolChangesPayload, ToolReviewInfo } from '../protocol/records.js';
import type { GatewayClient } from './gateway-client.js';
import {
  APPROVE,
  approvalDialog,
  KEEP_BLOCKED,
  parseVersionPath,
  quarantineMessage,
  REVIEW_SCHEME,
  reviewNotice,
  versionPath,
  versionText,
} from './tool-review-items.js';

type Target = { power: string; tool?: string } | undefined;

export class ToolReview implements vscode.TextDocumentContentProvider, vscode.Disposable {
  reviews: ToolReviewInfo[] = [];
  private readonly changed = new vscode.EventEmitter<void>();
  /** The reviews changed (the Powers tree redraws its review item). */
  readonly onDidChangeReviews = this.changed.event;
  private readonly documents = new vscode.EventEmitter<vscode.Uri>();
  /** An open grimoire-review: document changed (TextDocumentContentProvider). */
  readonly onDidChange = this.documents.event;
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly gateway: GatewayClient) {
    this.disposables = [
      this.changed,
      this.documents,
      vscode.workspace.registerTextDocumentContentProvider(REVIEW_SCHEME, this),
      gateway.onNotification(protocol.toolsQuarantined, (payload) => void this.announce(payload)),
      gateway.onDidChangePowers(() => void this.refresh()),
      gateway.onDidConnect(() => void this.refresh()),
      vscode.commands.registerCommand('grimoire.reviewToolChanges', (target?: unknown) =>
        this.review(asTarget(target)),
      ),
      vscode.commands.registerCommand('grimoire.approveToolChange', (target?: unknown) =>
        this.decide('approve', asTarget(target)),
      ),
      vscode.commands.registerCommand('grimoire.keepToolBlocked', (target?: unknown) =>
        this.decide('reject', asTarget(target)),
      ),
    ];
  }

  /** Reads the held tools again. */
  async refresh(): Promise<ToolReviewInfo[]> {
    try {
      this.set(await this.gateway.request(protocol.listToolChanges, null));
    } catch {
      // The gateway is (re)starting: the next powers notification refreshes.
    }
    return this.reviews;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const side = parseVersionPath(uri.path);
    const review = side && this.reviews.find((r) => r.power === side.power && r.tool === side.tool);
    return review && side ? versionText(review, side.side) : '(this change is no longer awaiting review)\n';
  }

  private set(payload: ToolChangesPayload): void {
    this.reviews = payload.reviews;
    this.changed.fire();
    for (const document of vscode.workspace.textDocuments)
      if (document.uri.scheme === REVIEW_SCHEME) this.documents.fire(document.uri);
  }

  private async announce(payload: ToolChangesPayload): Promise<void> {
    await this.refresh();
    const choice = await vscode.window.showWarningMessage(quarantineMessage(payload.reviews), 'Review changes');
    if (choice)
      await this.review({
        power: payload.reviews[0].power,
        tool: payload.reviews.length === 1 ? payload.reviews[0].tool : undefined,
      });
  }

  /** Opens the diff of one held tool (picked when not given) and offers the decision. Returns the reviewed tool. */
  async review(target?: Target): Promise<ToolReviewInfo | undefined> {
    await this.refresh();
    const review = await this.pick(target, 'Review which changed tool?');
    if (!review) return undefined;
    const side = (s: 'old' | 'new') => vscode.Uri.from({ scheme: REVIEW_SCHEME, path: versionPath(review, s) });
    await vscode.commands.executeCommand(
      'vscode.diff',
      side('old'),
      side('new'),
      `${review.power}:${review.tool}: approved ↔ offered now`,
      { preview: true },
    );
    const items = [KEEP_BLOCKED, `${APPROVE}...`];
    const shown = review.suspicious.length
      ? vscode.window.showWarningMessage(reviewNotice(review), ...items)
      : vscode.window.showInformationMessage(reviewNotice(review), ...items);
    void shown.then((choice) => {
      if (choice === KEEP_BLOCKED) void this.decide('reject', review);
      else if (choice) void this.decide('approve', review);
    });
    return review;
  }

  /**
   * Approves (after a modal confirmation naming the change and its flags: the tool is exposed again)
   * or keeps blocked; returns what is still held, or undefined when nothing was decided.
   */
  async decide(decision: 'approve' | 'reject', target?: Target): Promise<ToolReviewInfo[] | undefined> {
    await this.refresh();
    const wholePower = decision === 'approve' && target && !target.tool;
    const chosen = wholePower
      ? this.reviews.filter((r) => r.power === target.power)
      : [
          await this.pick(
            target,
            decision === 'approve' ? 'Approve which tool?' : 'Keep which tool blocked?',
            decision === 'reject' ? 'pending' : undefined,
          ),
        ].filter((r): r is ToolReviewInfo => r !== undefined);
    if (chosen.length === 0) return undefined;
    if (decision === 'approve') {
      const dialog = approvalDialog(chosen);
      const answer = await vscode.window.showWarningMessage(dialog.message, dialog.options, ...dialog.items);
      if (answer === undefined) return undefined;
      if (answer === KEEP_BLOCKED) return this.keepBlocked(chosen.filter((r) => r.status === 'pending'));
    }
    try {
      if (decision === 'approve')
        this.set(
          await this.gateway.request(
            protocol.approveToolChange,
            wholePower ? { power: target.power } : { power: chosen[0].power, tool: chosen[0].tool },
          ),
        );
      else return this.keepBlocked(chosen);
    } catch (error) {
      void vscode.window.showErrorMessage(`Grimoire: ${(error as Error).message}`);
      return undefined;
    }
    return this.reviews;
  }

  private async keepBlocked(reviews: readonly ToolReviewInfo[]): Promise<ToolReviewInfo[] | undefined> {
    try {
      for (const review of reviews)
        this.set(await this.gateway.request(protocol.rejectToolChange, { power: review.power, tool: review.tool }));
    } catch (error) {
      void vscode.window.showErrorMessage(`Grimoire: ${(error as Error).message}`);
      return undefined;
    }
    return this.reviews;
  }

  private async pick(
    target: Target,
    placeHolder: string,
    status?: ToolReviewInfo['status'],
  ): Promise<ToolReviewInfo | undefined> {
    const candidates = this.reviews.filter(
      (r) =>
        (!status || r.status === status) &&
        (!target || (r.power === target.power && (!target.tool || r.tool === target.tool))),
    );
    if (candidates.length <= 1) return candidates[0];
    const picked = await vscode.window.showQuickPick(
      candidates.map((review) => ({
        label: `${review.power}:${review.tool}`,
        description: review.changes.join('; '),
        review,
      })),
      { placeHolder },
    );
    return picked?.review;
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
  }
}

/** A command argument: `{ power, tool? }` from a caller or a tool row of the Powers tree; anything else (the review item) picks. */
function asTarget(arg: unknown): Target {
  const node = arg as { kind?: unknown; power?: { name?: unknown }; tool?: { name?: unknown } } | undefined;
  if (node?.kind === 'tool' && typeof node.power?.name === 'string' && typeof node.tool?.name === 'string')
    return { power: node.power.name, tool: node.tool.name };
  const candidate = arg as { power?: unknown; tool?: unknown } | undefined;
  if (!candidate || typeof candidate.power !== 'string') return undefined;
  return { power: candidate.power, ...(typeof candidate.tool === 'string' ? { tool: candidate.tool } : {}) };
}

/** The Powers view's badge: how many tools await review. */
export function reviewBadge(view: vscode.TreeView<unknown>, review: ToolReview): vscode.Disposable {
  const update = () => {
    const pending = review.reviews.filter((r) => r.status === 'pending').length;
    view.badge = pending
      ? { value: pending, tooltip: `${pending} tool${pending === 1 ? '' : 's'} held back for your review` }
      : undefined;
  };
  update();
  return review.onDidChangeReviews(update);
}
