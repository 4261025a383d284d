/**
 * May a power or a tool be resolved, offered, exposed or called? The one place that answers, from
 * the settings (`powers.disabled`, `tools.blocked`) and the trust review (tools held since they
 * changed). Every caller (resolution, retrieve_tools, activation, exposure, the call paths) asks here.
 *
 * - A disabled power is never resolved, activated, offered or called.
 * - A blocked tool is never offered, exposed or called.
 * - A held tool is offered by retrieve_tools, marked as awaiting review, but never exposed or called.
 */
export type Refusal = 'disabled' | 'blocked' | 'awaiting_review';

export interface PolicySettings {
  powers: { disabled: string[] };
  tools: { blocked: string[] };
}

export interface HeldTools {
  isQuarantined(power: string, tool: string): boolean;
  quarantinedOf(power: string): string[];
}

export class ToolPolicy {
  constructor(
    private readonly settings: () => PolicySettings,
    private readonly review: HeldTools,
  ) {}

  /** 'disabled' when the power may not be resolved, activated or called. */
  powerRefusal(power: string): 'disabled' | undefined {
    return this.settings().powers.disabled.includes(power) ? 'disabled' : undefined;
  }

  /** What the settings say of a tool: its power disabled, or the tool blocked. */
  settingsRefusal(power: string, tool: string): 'disabled' | 'blocked' | undefined {
    return (
      this.powerRefusal(power) ?? (this.settings().tools.blocked.includes(`${power}:${tool}`) ? 'blocked' : undefined)
    );
  }

  /** Held for the user's review: offered (marked), never exposed or called. */
  isHeld(power: string, tool: string): boolean {
    return this.review.isQuarantined(power, tool);
  }

  /** The power's tools held for review. */
  held(power: string): string[] {
    return this.review.quarantinedOf(power);
  }

  /** Why a call to the tool is refused, settings first; undefined when it may be called. */
  callRefusal(power: string, tool: string): Refusal | undefined {
    return this.settingsRefusal(power, tool) ?? (this.isHeld(power, tool) ? 'awaiting_review' : undefined);
  }

  /** May join an agent's tool list (or its call_with_tools). */
  exposable(power: string, tool: string): boolean {
    return this.callRefusal(power, tool) === undefined;
  }
}

/** What the agent is told when the settings refuse a call (held tools: awaitingReview below). */
export function settingsRefusalText(refusal: 'disabled' | 'blocked', power: string, tool: string): string {
  return refusal === 'disabled'
    ? `Power '${power}' is disabled in settings (powers.disabled).`
    : `Tool '${power}:${tool}' is blocked in settings (tools.blocked).`;
}

/** What the agent is told about a tool held for the user's review. */
export function awaitingReview(name: string): string {
  return (
    `Tool '${name}' changed since the user approved it (or is new) and awaits their review, so Grimoire does not call it. ` +
    `Tell the user: they can review it in the Grimoire Powers view or with 'grimoire tools changes', then approve it.`
  );
}

export const AWAITING_REVIEW_NOTE =
  "changed since approved (or new): awaits the user's review and cannot be called until approved";
