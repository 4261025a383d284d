/**
 * The tool review in VS Code: a notification when tools are held back, the "Review changes" item and
 * a badge on the Powers view, VS Code's diff editor on the approved and the offered version
 * (grimoire-review: documents), and approve / keep blocked.
 */
import * as vscode from 'vscode';
import * as protocol from '../server/rpc/protocol.js';
import type { ToolChangesPayload, ToolReviewInfo } from '../server/rpc/protocol.js';
import type { GatewayClient } from './gateway-client.js';
import { parseVersionPath, quarantineMessage, REVIEW_SCHEME, versionPath, versionText } from './tool-review-items.js';

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
      vscode.commands.registerCommand('grimoire.reviewToolChanges', (target?: unknown) => this.review(asTarget(target))),
      vscode.commands.registerCommand('grimoire.approveToolChange', (target?: unknown) => this.decide('approve', asTarget(target))),
      vscode.commands.registerCommand('grimoire.keepToolBlocked', (target?: unknown) => this.decide('reject', asTarget(target))),
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
    for (const document of vscode.workspace.textDocuments) if (document.uri.scheme === REVIEW_SCHEME) this.documents.fire(document.uri);
  }

  private async announce(payload: ToolChangesPayload): Promise<void> {
    await this.refresh();
    const choice = await vscode.window.showWarningMessage(quarantineMessage(payload.reviews), 'Review changes');
    if (choice) await this.review({ power: payload.reviews[0].power, tool: payload.reviews.length === 1 ? payload.reviews[0].tool : undefined });
  }

  /** Opens the diff of one held tool (picked when not given) and offers the decision. Returns the reviewed tool. */
  async review(target?: Target): Promise<ToolReviewInfo | undefined> {
    await this.refresh();
    const review = await this.pick(target, 'Review which changed tool?');
    if (!review) return undefined;
    const side = (s: 'old' | 'new') => vscode.Uri.from({ scheme: REVIEW_SCHEME, path: versionPath(review, s) });
    await vscode.commands.executeCommand('vscode.diff', side('old'), side('new'), `${review.power}:${review.tool}: approved ↔ offered now`, { preview: true });
    const flags = review.suspicious.map((f) => `${f.kind}: "${f.excerpt}"`).join('; ');
    const detail = `${review.changes.join('; ') || 'a new tool'}${flags ? `. Suspicious: ${flags}` : ''}`;
    void vscode.window.showInformationMessage(`${review.power}:${review.tool}: ${detail}`, 'Approve', 'Keep blocked').then((choice) => {
      if (choice === 'Approve') void this.decide('approve', review);
      else if (choice === 'Keep blocked') void this.decide('reject', review);
    });
    return review;
  }

  /** Approves (the tool is exposed again) or keeps blocked; returns what still awaits review. */
  async decide(decision: 'approve' | 'reject', target?: Target): Promise<ToolReviewInfo[] | undefined> {
    const wholePower = decision === 'approve' && target && !target.tool;
    const review = wholePower ? undefined : await this.pick(target, decision === 'approve' ? 'Approve which tool?' : 'Keep which tool blocked?');
    const params = review ? { power: review.power, tool: review.tool } : wholePower ? { power: target.power } : undefined;
    if (!params) return undefined;
    const method = decision === 'approve' ? protocol.approveToolChange : protocol.rejectToolChange;
    try {
      this.set(await this.gateway.request(method, params));
    } catch (error) {
      void vscode.window.showErrorMessage(`Grimoire: ${(error as Error).message}`);
      return undefined;
    }
    return this.reviews;
  }

  private async pick(target: Target, placeHolder: string): Promise<ToolReviewInfo | undefined> {
    const candidates = this.reviews.filter((r) => !target || (r.power === target.power && (!target.tool || r.tool === target.tool)));
    if (candidates.length <= 1) return candidates[0];
    const picked = await vscode.window.showQuickPick(
      candidates.map((review) => ({ label: `${review.power}:${review.tool}`, description: review.changes.join('; '), review })),
      { placeHolder },
    );
    return picked?.review;
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
  }
}

/** A command argument: `{ power, tool? }` from a caller, anything else (a tree node) picks. */
function asTarget(arg: unknown): Target {
  const candidate = arg as { power?: unknown; tool?: unknown } | undefined;
  if (!candidate || typeof candidate.power !== 'string') return undefined;
  return { power: candidate.power, ...(typeof candidate.tool === 'string' ? { tool: candidate.tool } : {}) };
}

/** The Powers view's badge: how many tools await review. */
export function reviewBadge(view: vscode.TreeView<unknown>, review: ToolReview): vscode.Disposable {
  const update = () => {
    const pending = review.reviews.filter((r) => r.status === 'pending').length;
    view.badge = pending ? { value: pending, tooltip: `${pending} tool${pending === 1 ? '' : 's'} held back for your review` } : undefined;
  };
  update();
  return review.onDidChangeReviews(update);
}
