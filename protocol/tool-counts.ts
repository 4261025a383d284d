/**
 * A power's tools told apart by what the agent may do with them: available, held for review,
 * blocked. Shared by the Powers tree, the activation message and the dashboard (no `vscode`, no DOM).
 */
import type { PowerInfo } from './records.js';

export function toolCountText(count: number): string {
  return count === 1 ? '1 tool' : `${count} tools`;
}

/** A power's listed tools split by what the agent may do with them. */
export interface ToolCounts {
  /** In the agent's list once the power is active. */
  available: number;
  /** Changed or new, awaiting the user's review: not exposed, not callable. */
  held: number;
  /** Kept blocked (by the review or the settings): never exposed or called. */
  blocked: number;
}

export type ToolStatus = 'available' | 'held' | 'blocked';

export function toolStatus(power: Pick<PowerInfo, 'awaitingReview' | 'blocked'>, tool: string): ToolStatus {
  if (power.blocked?.includes(tool)) return 'blocked';
  return power.awaitingReview?.includes(tool) ? 'held' : 'available';
}

export function toolCounts(power: Pick<PowerInfo, 'tools' | 'awaitingReview' | 'blocked'>): ToolCounts {
  const counts: ToolCounts = { available: 0, held: 0, blocked: 0 };
  for (const tool of power.tools) counts[toolStatus(power, tool.name)]++;
  return counts;
}

/** "3 tools" when every tool is available, else "2 available · 1 held for review · 1 blocked". */
export function toolCountsText(counts: ToolCounts): string {
  if (counts.held === 0 && counts.blocked === 0) return toolCountText(counts.available);
  return [
    `${counts.available} available`,
    ...(counts.held ? [`${counts.held} held for review`] : []),
    ...(counts.blocked ? [`${counts.blocked} blocked`] : []),
  ].join(' · ');
}
