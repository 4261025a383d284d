/** Activity rows and live entries as the protocol carries them, and the protocol's filter checked and translated. */
import type { ActivityEntry, ActivityRow } from '../activity/activity-log.js';
import type { ActivityFilter } from '../activity/activity-query.js';
import { ACTIVITY_STATUSES, INTENT_TYPES, type ActivityDecision, type ActivityFilterInfo, type ActivityInfo, type ActivityRating, type ActivityStatus, type IntentType } from './protocol.js';

const optional = <K extends string, V>(key: K, value: V | null | undefined): { [P in K]?: V } => (value === null || value === undefined ? {} : ({ [key]: value } as { [P in K]?: V }));

export function ratingOf(value: number | null | undefined): ActivityRating {
  return value === 1 || value === -1 ? value : 0;
}

export function activityFromRow(row: ActivityRow): ActivityInfo {
  return {
    id: row.id,
    at: row.at,
    session: row.session,
    power: row.power,
    tool: row.tool,
    variant: row.variant,
    ...optional('operationType', row.operation_type),
    ...optional('dataSensitivity', row.data_sensitivity),
    ...optional('reason', row.reason),
    decision: row.decision as ActivityDecision,
    ...optional('decisionReason', row.decision_reason),
    status: row.status as ActivityStatus,
    ...optional('error', row.error),
    latencyMs: row.latency_ms,
    resultBytes: row.result_bytes,
    audit: row.audit === 1,
    rating: ratingOf(row.rating),
  };
}

/** A call as the log announces it, just recorded: not rated yet. */
export function activityFromEntry(entry: ActivityEntry): ActivityInfo {
  return {
    id: entry.id,
    at: entry.at,
    session: entry.session,
    power: entry.power,
    tool: entry.tool,
    variant: entry.variant,
    ...optional('operationType', entry.operationType),
    ...optional('dataSensitivity', entry.dataSensitivity),
    ...optional('reason', entry.reason),
    decision: entry.decision,
    ...optional('decisionReason', entry.decisionReason),
    status: entry.status,
    ...optional('error', entry.error),
    latencyMs: Math.round(entry.latencyMs),
    resultBytes: entry.resultBytes,
    audit: entry.audit === true,
    rating: 0,
  };
}

/** The filter a client sent, checked: an unknown intent type or status, or a bad number, is an error that says so. */
export function parseActivityFilterInfo(params: unknown): ActivityFilterInfo {
  if (params === null || params === undefined) return {};
  if (typeof params !== 'object' || Array.isArray(params)) throw new Error('The activity filter must be an object.');
  const p = params as Record<string, unknown>;
  const text = (key: string): string | undefined => {
    const value = p[key];
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'string') throw new Error(`${key} must be a string.`);
    return value;
  };
  const number = (key: string): number | undefined => {
    const value = p[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new Error(`${key} must be a non-negative number.`);
    return value;
  };
  const intentType = text('intentType');
  if (intentType !== undefined && !INTENT_TYPES.includes(intentType as IntentType)) throw new Error(`intentType must be one of ${INTENT_TYPES.join(', ')}; got '${intentType}'.`);
  const status = text('status');
  if (status !== undefined && !ACTIVITY_STATUSES.includes(status as ActivityStatus)) throw new Error(`status must be one of ${ACTIVITY_STATUSES.join(', ')}; got '${status}'.`);
  return {
    ...optional('intentType', intentType as IntentType | undefined),
    ...optional('status', status as ActivityStatus | undefined),
    ...optional('power', text('power')),
    ...optional('tool', text('tool')),
    ...optional('since', number('since')),
    ...optional('until', number('until')),
    ...optional('limit', number('limit')),
  };
}

export function toActivityFilter(filter: ActivityFilterInfo): ActivityFilter {
  return { ...filter };
}

export function parseRating(value: unknown): ActivityRating {
  if (value === 1 || value === -1 || value === 0) return value;
  throw new Error(`rating must be 1 (thumbs up), -1 (thumbs down) or 0 (none); got ${JSON.stringify(value)}.`);
}
