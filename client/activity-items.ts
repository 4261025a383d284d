/** What the Activity view shows, built from protocol payloads. No `vscode` import: activity-view.ts makes TreeItems of it. */
import { intentText, latencyText } from '../protocol/activity-shared.js';
import type { ActivityInfo, ActivityStatus } from '../protocol/records.js';
import type { ItemModel } from './tree-items.js';

const STATUS_ICON: Record<ActivityStatus, ItemModel['icon']> = {
  ok: { id: 'pass', color: 'testing.iconPassed' },
  error: { id: 'error', color: 'errorForeground' },
  rejected: { id: 'circle-slash', color: 'errorForeground' },
  suggested: { id: 'lightbulb', color: 'editorLightBulb.foreground' },
};

const STATUS_TEXT: Record<ActivityStatus, string> = {
  ok: 'ok',
  error: 'error',
  rejected: 'rejected',
  suggested: 'prerequisite suggested',
};

export function ratingText(rating: number): string {
  return rating > 0 ? 'rated up' : rating < 0 ? 'rated down' : '';
}

/** `contextValue`: the inline thumbs shown depend on the rating; `.audit` marks audit-flagged calls. */
export function activityContext(entry: Pick<ActivityInfo, 'rating' | 'audit'>): string {
  const rated = entry.rating > 0 ? 'rated-up' : entry.rating < 0 ? 'rated-down' : 'unrated';
  return `grimoire.activity.${rated}${entry.audit ? '.audit' : ''}`;
}

export function activityItem(entry: ActivityInfo, now = Date.now()): ItemModel {
  const parts = [
    ...(entry.audit ? ['⚑ audit'] : []),
    entry.power,
    intentText(entry),
    STATUS_TEXT[entry.status],
    ...(entry.decision !== 'allowed' && entry.status !== 'rejected' ? [entry.decision] : []),
    latencyText(entry.latencyMs),
    ...(entry.rating ? [ratingText(entry.rating)] : []),
  ];
  const lines = [
    `${entry.power}:${entry.tool} (${intentText(entry)})`,
    `${new Date(entry.at).toLocaleString()} (${ago(entry.at, now)})`,
    `Status: ${STATUS_TEXT[entry.status]} · decision: ${entry.decision}${entry.decisionReason ? ` (${entry.decisionReason})` : ''}`,
    ...(entry.error ? [`Error: ${entry.error}`] : []),
    ...(entry.reason ? [`Reason given: ${entry.reason}`] : []),
    ...(entry.dataSensitivity ? [`Data sensitivity: ${entry.dataSensitivity}`] : []),
    `Latency: ${latencyText(entry.latencyMs)} · result: ${entry.resultBytes} bytes`,
    ...(entry.audit ? ['Audit: the spell flags this tool for review (audit: true).'] : []),
    ...(entry.rating
      ? [`You ${ratingText(entry.rating)} this call; the ranking learns from it.`]
      : ['Rate it with the thumbs: the ranking learns from it.']),
    `Session ${entry.session} · id ${entry.id}`,
  ];
  const icon =
    entry.decision === 'warned' && entry.status === 'ok'
      ? { id: 'warning', color: 'problemsWarningIcon.foreground' }
      : STATUS_ICON[entry.status];
  return {
    id: `activity:${entry.id}`,
    label: entry.tool,
    description: parts.join(' · '),
    tooltip: lines.join('\n'),
    contextValue: activityContext(entry),
    icon,
    collapsible: false,
  };
}

export function ago(at: number, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} days ago`;
}
