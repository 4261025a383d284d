/** What the dashboard shows, computed from protocol payloads. No DOM: unit-tested under Node. */
import {
  POWER_SOURCE_LABELS,
  type GatewayStatus,
  type PowerInfo,
  type ResolveResult,
  type Tier,
} from '../protocol/records.js';
import { toolCounts, type ToolCounts } from '../protocol/tool-counts.js';
import { inAgentsView, powerStateText } from '../protocol/power-state.js';

export interface PowerRow {
  name: string;
  description: string;
  state: string;
  /** CSS modifier for the state dot. */
  tone: 'ok' | 'busy' | 'error' | 'idle' | 'warn';
  /** Available tools: in the agent's list while the power is active. */
  tools: number;
  /** "1 held for review · 1 blocked", '' when every tool is available. */
  toolsWithheld: string;
  source: string;
  active: boolean;
  action: 'activate' | 'deactivate';
}

export interface ScoreRow {
  name: string;
  percent: number;
  confidenceText: string;
  band: Tier;
  bandText: string;
  matched: string;
  offered: boolean;
  active: boolean;
}

export const TIER_LABEL: Record<Tier, string> = {
  activated: 'Activated',
  multiple_matches: 'Multiple matches',
  weak_matches: 'Weak matches',
  not_found: 'Not found',
};

/** One power's match: never "Activated" (the playground ranks; its Activate button activates). */
export const BAND_LABEL: Record<Tier, string> = {
  activated: 'Clear match',
  multiple_matches: 'Close match',
  weak_matches: 'Weak match',
  not_found: 'No match',
};

const TIER_EXPLAINED: Record<Tier, string> = {
  activated: 'one power is a clear match: an agent gets it activated with its tools',
  multiple_matches: 'several powers could serve: an agent is asked to pick one',
  weak_matches: 'only weak matches: an agent is told to rephrase or pick',
  not_found: 'no power matches: an agent is shown every power',
};

function withheldText(counts: ToolCounts): string {
  return [
    ...(counts.held ? [`${counts.held} held for review`] : []),
    ...(counts.blocked ? [`${counts.blocked} blocked`] : []),
  ].join(' · ');
}

export function powerRows(powers: PowerInfo[]): PowerRow[] {
  return powers.map((power) => {
    const cannotStart = power.problems.length > 0 && power.state !== 'active';
    const state = powerStateText(power);
    const tone: PowerRow['tone'] =
      power.state === 'crashed'
        ? 'error'
        : cannotStart
          ? 'warn'
          : inAgentsView(power)
            ? 'ok'
            : power.state === 'starting' || power.state === 'stopping'
              ? 'busy'
              : 'idle';
    return {
      name: power.name,
      description: power.description,
      state,
      tone,
      tools: toolCounts(power).available,
      toolsWithheld: withheldText(toolCounts(power)),
      source: POWER_SOURCE_LABELS[power.source.kind],
      active: power.active,
      action: power.active ? 'deactivate' : 'activate',
    };
  });
}

export function scoreRows(result: ResolveResult, powers: PowerInfo[]): ScoreRow[] {
  const active = new Set(powers.filter((power) => power.active).map((power) => power.name));
  return result.scores.map((score) => ({
    name: score.name,
    percent: Math.round(score.confidence * 100),
    confidenceText: score.confidence.toFixed(2),
    band: score.band,
    bandText: BAND_LABEL[score.band],
    matched: score.matchedWords.length ? `${score.matchType}: ${score.matchedWords.join(', ')}` : '',
    offered: result.candidates.includes(score.name),
    active: active.has(score.name),
  }));
}

export function tierSummary(result: ResolveResult): { label: string; text: string } {
  const t = result.thresholds;
  return {
    label: TIER_LABEL[result.tier],
    text:
      `${TIER_EXPLAINED[result.tier]}. Thresholds: activate ≥ ${t.activateThreshold}, ` +
      `multiple ≥ ${t.multipleThreshold}, weak ≥ ${t.weakThreshold}; ranked in ${result.elapsedMs} ms.`,
  };
}

export function healthText(status: GatewayStatus): { label: string; tone: 'ok' | 'busy' | 'error'; detail: string } {
  switch (status.health) {
    case 'ready':
      return {
        label: 'Ready',
        tone: 'ok',
        detail:
          `${status.url ?? ''} · ${status.powers} powers, ${status.activePowers} ` +
          `active${status.crashedPowers ? `, ${status.crashedPowers} crashed` : ''}` +
          `${status.issues ? ` · ${status.issues} configuration problem(s)` : ''}`,
      };
    case 'failed':
      return { label: 'Failed', tone: 'error', detail: status.message ?? 'The gateway did not start.' };
    case 'restarting':
      return { label: 'Restarting', tone: 'busy', detail: 'Settings changed: the gateway is starting again.' };
    case 'starting':
      return { label: 'Starting', tone: 'busy', detail: 'The gateway is starting.' };
  }
}
