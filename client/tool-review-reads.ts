/**
 * The review of the tools Grimoire believes only read but no annotation declares: one pick list
 * (command "Review Tools That Only Read"), offered once by a notification when new ones appear (after
 * a config is imported, or a power's tools are first listed). The user's word goes to the gateway over
 * JSON-RPC: an agent has no way to give it.
 */
import * as vscode from 'vscode';
import * as protocol from '../protocol/extension-methods.js';
import type { ReadCandidateInfo } from '../protocol/records.js';
import type { GatewayClient } from './gateway-client.js';
import {
  awaitingWord,
  confirmPrompt,
  MARK_READ_ONLY,
  offerMessage,
  pickItem,
  REVIEW_READS,
} from './tool-review-reads-items.js';

/** Powers change in bursts while servers are listed: the offer waits for the burst to end. */
const OFFER_AFTER_MS = 3000;
/** Where the tools already offered are kept (global state): a declined offer is not repeated at every start. */
const OFFERED_KEY = 'grimoire.readsOffered';
const OFFERED_KEPT = 2000;

export class ReadReview implements vscode.Disposable {
  /** The candidates already offered: each is offered once (the review command lists them all, always). */
  private readonly offered: Set<string>;
  private timer?: NodeJS.Timeout;
  private offering = false;
  private readonly disposables: vscode.Disposable[];

  constructor(
    private readonly gateway: GatewayClient,
    private readonly memory: vscode.Memento,
  ) {
    this.offered = new Set(memory.get<string[]>(OFFERED_KEY, []));
    this.disposables = [
      gateway.onDidChangePowers(() => this.scheduleOffer()),
      vscode.commands.registerCommand('grimoire.reviewReads', () => this.review()),
    ];
  }

  /** The pick list of believed reads; the picked ones are confirmed after a modal. Returns what was confirmed. */
  async review(): Promise<string[]> {
    const reads = await this.candidates();
    if (!reads) return [];
    if (reads.length === 0) {
      void vscode.window.showInformationMessage('Grimoire: no listed tool looks like a read without declaring it.');
      return [];
    }
    const picked = await vscode.window.showQuickPick(
      reads.map((read) => ({ ...pickItem(read), read })),
      {
        canPickMany: true,
        placeHolder: 'Tools that only read, by their names: the picked ones go through call_tool_read once you confirm',
        matchOnDetail: true,
      },
    );
    const chosen = (picked ?? []).map((item) => item.read).filter((read) => read.status !== 'confirmed');
    if (chosen.length === 0) return [];
    const prompt = confirmPrompt(chosen);
    const answer = await vscode.window.showWarningMessage(
      prompt.message,
      { modal: true, detail: prompt.detail },
      MARK_READ_ONLY,
    );
    if (answer !== MARK_READ_ONLY) return [];
    try {
      const after = await this.gateway.request(protocol.confirmReads, {
        tools: chosen.map((read) => `${read.power}:${read.tool}`),
      });
      for (const refusal of after.refused ?? []) void vscode.window.showWarningMessage(`Grimoire: ${refusal}`);
      const confirmed = new Set(
        after.reads.filter((read) => read.status === 'confirmed').map((read) => `${read.power}:${read.tool}`),
      );
      return chosen.map((read) => `${read.power}:${read.tool}`).filter((name) => confirmed.has(name));
    } catch (error) {
      void vscode.window.showErrorMessage(`Grimoire: ${(error as Error).message}`);
      return [];
    }
  }

  private scheduleOffer(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.offer(), OFFER_AFTER_MS);
  }

  /** One notification for the candidates not offered yet in this window. */
  private async offer(): Promise<void> {
    if (this.offering) return;
    const reads = await this.candidates();
    const fresh = awaitingWord(reads ?? []).filter((read) => !this.offered.has(`${read.power}:${read.tool}`));
    if (fresh.length === 0) return;
    for (const read of fresh) this.offered.add(`${read.power}:${read.tool}`);
    void this.memory.update(OFFERED_KEY, [...this.offered].slice(-OFFERED_KEPT));
    this.offering = true;
    try {
      if (
        (await vscode.window.showInformationMessage(`Grimoire: ${offerMessage(fresh)}`, REVIEW_READS)) === REVIEW_READS
      )
        await this.review();
    } finally {
      this.offering = false;
    }
  }

  private async candidates(): Promise<ReadCandidateInfo[] | undefined> {
    try {
      return (await this.gateway.request(protocol.listReadCandidates, null)).reads;
    } catch {
      // The gateway is (re)starting: the next powers notification offers again.
      return undefined;
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const disposable of this.disposables) disposable.dispose();
  }
}
