/**
 * A power's state in words, the same in the Powers tree, the pickers and the dashboard: "active" only
 * where an agent has its tools (an activated power in no agent's list, or a server running without
 * being activated, says so); a server that waits for the user's approval to run says that first.
 */
import type { PowerInfo } from './records.js';

export type PowerStateFields = Pick<
  PowerInfo,
  'state' | 'active' | 'agentSessions' | 'problems' | 'missingCommand' | 'awaitingLaunch'
>;

export function powerStateText(power: PowerStateFields): string {
  if (power.awaitingLaunch) return 'waiting for approval';
  if (power.missingCommand && power.state !== 'active') return 'command not found';
  if (power.problems.length > 0 && power.state !== 'active') return 'cannot start';
  if (power.active && power.agentSessions === 0) return "activated, in no agent's list";
  if (power.active && power.state === 'stopped') return 'activated (idle)';
  if (!power.active && power.state === 'active') return 'running, not activated';
  return power.state;
}

/** Shown as working (green): its server runs and some agent has its tools. */
export function inAgentsView(power: PowerStateFields): boolean {
  return power.state === 'active' && power.active && power.agentSessions > 0;
}
