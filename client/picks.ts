/** Quick pick entries for the power and resolve commands. No `vscode` import. */
import type { GatewayStatus, PowerInfo, PowerScoreInfo, ResolveResult, Tier } from '../protocol/records.js';
import { powerStateText, toolCounts, toolCountsText } from './tree-items.js';

export interface PickModel {
  name: string;
  label: string;
  description: string;
  detail: string;
}

/** Powers to activate (not active ones first) or to deactivate (active ones only). */
export function powerPicks(powers: PowerInfo[], purpose: 'activate' | 'deactivate'): PickModel[] {
  const chosen =
    purpose === 'deactivate'
      ? powers.filter((power) => power.active)
      : [...powers].sort((a, b) => Number(a.active) - Number(b.active) || a.name.localeCompare(b.name));
  return chosen.map((power) => ({
    name: power.name,
    label: power.name,
    description: `${powerStateText(power)} · ${toolCountsText(toolCounts(power))}`,
    detail: power.problems.length ? `${power.description} (${power.problems[0]})` : power.description,
  }));
}

export type PickPurpose = 'activate' | 'deactivate' | 'open' | 'resolve';

/** Why a picker would be empty. */
export function nothingToPickText(status: GatewayStatus, powers: PowerInfo[], purpose: PickPurpose): string {
  if (status.health === 'starting' || status.health === 'restarting')
    return 'the gateway is still starting; its powers are listed in a moment.';
  if (status.health === 'failed') return `the gateway did not start (${status.message ?? 'see the output'}).`;
  if (powers.length === 0)
    return (
      'there are no powers yet. A power is an MCP server: make one from a template or from an mcp.json ' +
      'server you already have, or try the bundled demo powers.'
    );
  if (purpose === 'deactivate') return 'no power is active.';
  if (purpose === 'activate') return 'every power is active already.';
  return 'there is nothing to pick.';
}

/** The resolve command ranks only: nothing is activated until the user picks a power. */
export const TIER_TEXT: Record<Tier, string> = {
  activated: 'one clear match: pick it to activate it',
  multiple_matches: 'multiple matches: pick one',
  weak_matches: 'weak matches only',
  not_found: 'no power matches',
};

/** How well one power matched, in words that never claim an activation (the picker activates nothing). */
export const BAND_TEXT: Record<Tier, string> = {
  activated: 'clear match',
  multiple_matches: 'close match',
  weak_matches: 'weak match',
  not_found: 'no match',
};

export function percent(confidence: number): string {
  return `${Math.round(confidence * 100)}%`;
}

/** Where the words matched, e.g. "its keywords". */
export function matchedWhere(matchType: string): string {
  const where: Record<string, string> = {
    name: 'its name',
    keyword: 'its keywords',
    description: 'its description',
    tool: 'its tools',
    learned: 'requests it served before',
  };
  return where[matchType] ?? `its ${matchType}`;
}

export function scorePick(
  score: PowerScoreInfo,
  candidates: string[],
  active: ReadonlySet<string> = new Set(),
): PickModel {
  return {
    name: score.name,
    label: score.name,
    description: [
      percent(score.confidence),
      BAND_TEXT[score.band],
      ...(active.has(score.name) ? ['already active'] : candidates.includes(score.name) ? ['offered'] : []),
    ].join(' · '),
    detail: score.matchedWords.length
      ? `your words ${score.matchedWords.map((word) => `"${word}"`).join(', ')} match ${matchedWhere(score.matchType)}`
      : 'none of your words match it',
  };
}

export function resolveTitle(result: ResolveResult, active: ReadonlySet<string> = new Set()): string {
  const top = result.candidates[0];
  if (result.tier === 'activated' && top && active.has(top))
    return `"${result.query}": one clear match, ${top}, already active`;
  return `"${result.query}": ${TIER_TEXT[result.tier]}`;
}
