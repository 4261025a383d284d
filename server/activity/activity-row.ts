import type { ActivityDecision, ActivityInfo, ActivityRating, ActivityStatus } from '../../protocol/records.js';

/** The `activity` table's columns (joined with `activity_ratings.rating`): the log's storage, never a record it hands out. */
export type ActivityRow = Pick<ActivityInfo, 'id' | 'at' | 'session' | 'power' | 'tool' | 'variant'> & {
  operation_type: string | null;
  data_sensitivity: string | null;
  reason: string | null;
  decision: string;
  decision_reason: string | null;
  status: string;
  error: string | null;
  latency_ms: number;
  result_bytes: number;
  audit: number | null;
  user_name: string | null;
  rating: number | null;
};

export function ratingOf(value: number | null | undefined): ActivityRating {
  return value === 1 || value === -1 ? value : 0;
}

const optional = <K extends string, V>(key: K, value: V | null | undefined): { [P in K]?: V } =>
  value === null || value === undefined ? {} : ({ [key]: value } as { [P in K]?: V });

/** A stored row as the one activity record (protocol `ActivityInfo`): absent fields left out, not null. */
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
    ...optional('user', row.user_name),
    rating: ratingOf(row.rating),
  };
}
