/** The dashboard's activity table, computed from protocol payloads. No DOM: unit-tested under Node. */
import { intentText, latencyText } from '../protocol/activity-shared.js';
import type { ActivityInfo, ActivityRating, ActivityStatus } from '../protocol/records.js';
import { formatBytes, formatTime } from './format.js';

export interface ActivityRow {
  id: string;
  time: string;
  tool: string;
  power: string;
  intent: string;
  status: ActivityStatus;
  statusText: string;
  tone: 'ok' | 'error' | 'warn' | 'idle';
  decision: string;
  latency: string;
  rating: ActivityRating;
  audit: boolean;
  /** Everything else, for the row's tooltip. */
  detail: string;
}

const STATUS_TEXT: Record<ActivityStatus, string> = {
  ok: 'ok',
  error: 'error',
  rejected: 'rejected',
  suggested: 'prerequisite suggested',
};

export function activityRows(entries: ActivityInfo[], now = Date.now()): ActivityRow[] {
  return entries.map((entry) => ({
    id: entry.id,
    time: formatTime(entry.at, now),
    tool: entry.tool,
    power: entry.power,
    intent: intentText(entry),
    status: entry.status,
    statusText: STATUS_TEXT[entry.status],
    tone:
      entry.status === 'ok'
        ? entry.decision === 'warned'
          ? 'warn'
          : 'ok'
        : entry.status === 'suggested'
          ? 'idle'
          : 'error',
    decision: entry.decision,
    latency: latencyText(entry.latencyMs),
    rating: entry.rating,
    audit: entry.audit,
    detail: [
      ...(entry.decisionReason ? [`Decision: ${entry.decision}: ${entry.decisionReason}`] : []),
      ...(entry.error ? [`Error: ${entry.error}`] : []),
      ...(entry.reason ? [`Reason: ${entry.reason}`] : []),
      ...(entry.dataSensitivity ? [`Sensitivity: ${entry.dataSensitivity}`] : []),
      `Result: ${formatBytes(entry.resultBytes)}`,
      ...(entry.audit ? ['Audit: flagged by the spell (audit: true)'] : []),
      `Session ${entry.session}`,
    ].join('\n'),
  }));
}

/** Distinct values seen, for the power filter (the gateway's powers first). */
export function powerOptions(known: string[], entries: ActivityInfo[], current?: string): string[] {
  return [...new Set([...known, ...entries.map((entry) => entry.power), ...(current ? [current] : [])])].sort();
}
