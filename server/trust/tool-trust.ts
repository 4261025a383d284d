import { EventEmitter } from 'node:events';
import type { Tool } from '../util/mcp-types.js';
import type { Store, WriteOp } from '../store/store.js';
import { PolledTable } from '../store/polled-table.js';
import { toolDiff } from './diff.js';
import {
  dropReviewOp,
  PinStore,
  pinOp,
  reviewOp,
  seenOp,
  toolHash,
  unpinOp,
  type Review,
  type ReviewStatus,
} from './pins.js';
import type { NewToolsPolicy } from './quarantine-policy.js';
import { suspiciousFlags } from './suspicious-text.js';

type Events = {
  /** The set of quarantined tools changed (here, or in another process sharing the store). */
  change: [];
  /** Tools were newly put in quarantine by `check`. */
  quarantined: [Review[]];
};

/**
 * Rug-pull protection. The first time a power's tools are seen they are pinned (description, input
 * schema, annotations, by hash); a later change of a pinned tool, or a new tool where the policy says
 * so, puts that tool in quarantine until the user approves the new version. Removed tools lose
 * their pin. Approvals from another process (the CLI) are picked up by polling the store.
 */
export class ToolTrust extends EventEmitter<Events> {
  private readonly pins: PinStore;
  private readonly held: PolledTable<{ status: ReviewStatus; newHash: string }>;

  constructor(
    store: Store,
    private readonly now: () => number = Date.now,
  ) {
    super();
    this.pins = new PinStore(store);
    this.held = new PolledTable(
      store,
      'tool_reviews',
      () => this.pins.quarantined(),
      (held) => `${held.status} ${held.newHash}`,
      () => this.emit('change'),
    );
  }

  /** Tools held for review, as `power:tool`. */
  isQuarantined(power: string, tool: string): boolean {
    return this.held.has(`${power}:${tool}`);
  }

  /** The power's tools held for review: all of them, or only those awaiting a decision ('pending') or kept blocked ('rejected'). */
  quarantinedOf(power: string, status?: 'pending' | 'rejected'): string[] {
    const prefix = `${power}:`;
    return [...this.held.entries()]
      .filter(([key, held]) => key.startsWith(prefix) && (status === undefined || held.status === status))
      .map(([key]) => key.slice(prefix.length));
  }

  /** Compares a fresh tool list with the pins; returns the reviews it opened. */
  check(power: string, tools: Tool[], policy: NewToolsPolicy): Review[] {
    const at = this.now();
    const ops: WriteOp[] = [];
    if (!this.pins.seen(power)) {
      ops.push(seenOp(power, at), ...tools.map((tool) => pinOp(power, tool, at)));
      this.pins.write(ops);
      return [];
    }
    const pins = this.pins.pins(power);
    const reviews = new Map(this.pins.reviews(power).map((review) => [review.tool, review]));
    const opened: Review[] = [];
    const present = new Set<string>();
    for (const tool of tools) {
      present.add(tool.name);
      const hash = toolHash(tool);
      const pin = pins.get(tool.name);
      const review = reviews.get(tool.name);
      if (pin?.hash === hash) {
        if (review) ops.push(dropReviewOp(power, tool.name));
        continue;
      }
      if (review?.newHash === hash) continue;
      const suspicious = suspiciousFlags(tool.description);
      // 'allow' pins a new tool at once, but never one whose text is flagged: that waits for the user.
      if (!pin && policy === 'allow' && suspicious.length === 0) {
        ops.push(pinOp(power, tool, at, hash));
        continue;
      }
      const next: Review = {
        power,
        tool: tool.name,
        kind: pin ? 'changed' : 'added',
        status: 'pending',
        ...(pin ? { oldHash: pin.hash, old: pin.definition } : {}),
        newHash: hash,
        new: {
          name: tool.name,
          description: tool.description,
          inputSchema: tool.inputSchema,
          annotations: tool.annotations,
        },
        diff: toolDiff(pin?.definition, tool),
        suspicious,
        seenAt: at,
      };
      ops.push(reviewOp(next));
      opened.push(next);
    }
    for (const name of pins.keys()) if (!present.has(name)) ops.push(unpinOp(power, name));
    for (const name of reviews.keys()) if (!present.has(name)) ops.push(dropReviewOp(power, name));
    this.pins.write(ops);
    this.poll();
    if (opened.length > 0) this.emit('quarantined', opened);
    return opened;
  }

  /** Every tool awaiting review (or rejected), of one power or all. */
  changes(power?: string): Review[] {
    return this.pins.reviews(power);
  }

  /** Pins the reviewed version of a tool (or of every held tool of the power); returns what was approved. */
  approve(power: string, tool?: string): Review[] {
    const targets = this.pins.reviews(power).filter((review) => tool === undefined || review.tool === tool);
    const at = this.now();
    this.pins.write(
      targets.flatMap((review) => [pinOp(power, review.new, at, review.newHash), dropReviewOp(power, review.tool)]),
    );
    this.poll();
    return targets;
  }

  /** Keeps a tool blocked: its review stays, marked rejected. */
  reject(power: string, tool: string): Review | undefined {
    const review = this.pins.reviews(power).find((r) => r.tool === tool);
    if (!review) return undefined;
    const rejected: Review = { ...review, status: 'rejected', decidedAt: this.now() };
    this.pins.write([reviewOp(rejected)]);
    this.poll();
    return rejected;
  }

  /** Re-reads the quarantine set; emits 'change' when it differs. */
  poll(): void {
    this.held.poll();
  }

  close(): void {
    this.held.close();
  }
}
