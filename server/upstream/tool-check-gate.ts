import { UpstreamError } from './errors.js';

/**
 * What checks a power's tools before a call reaches them: the listing compared with the pins
 * (catalog/power-tools.ts) and the policy that then says whether the tool may be called.
 */
export interface ToolCheck {
  /** Lists the power's tools and compares them with their pins; the listing marks the gate checked. */
  check(power: string): Promise<void>;
  /** Why the tool may not be called now (held for review, blocked...); undefined when it may. */
  refusal(
    power: string,
    tool: string,
  ): { code: 'awaiting_review' | 'disabled' | 'blocked'; message: string } | undefined;
}

/**
 * No call before the check. Every start of a power's server and every `tools/list_changed` it
 * sends opens a new generation of its definitions; a call waits until a listing made in the
 * current generation has been compared with the pins; the caller then asks the policy again (the
 * listing may have held the very tool it calls). The fast path, a checked generation, is one comparison.
 */
const MAX_ROUNDS = 5;

export class ToolCheckGate {
  private generation = 0;
  private checked = 0;

  /** The definitions may have changed (a start, a list_changed): calls wait for the next check. */
  changed(): void {
    this.generation += 1;
  }

  /** The generation a listing sent now belongs to; pass it to `markChecked` once compared with the pins. */
  get current(): number {
    return this.generation;
  }

  /** A listing of `generation` was compared with the pins; a later change keeps the gate closed. */
  markChecked(generation: number): void {
    if (generation === this.generation) this.checked = generation;
  }

  get open(): boolean {
    return this.checked === this.generation;
  }

  /** Resolves once a listing of the current definitions has been compared with the pins; throws when none could be. */
  async untilChecked(power: string, tool: string, check: ToolCheck): Promise<void> {
    for (let round = 0; !this.open; round += 1) {
      const before = this.generation;
      await check.check(power);
      // A listing that changed nothing, or a server that keeps changing its tools during every listing.
      if (!this.open && (this.generation === before || round >= MAX_ROUNDS)) {
        throw new UpstreamError(
          'unchecked',
          power,
          `The tools of '${power}' could not be checked against their approved versions, so '${tool}' was not called. Call again.`,
        );
      }
    }
  }
}
