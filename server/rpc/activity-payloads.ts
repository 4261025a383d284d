/** The activity filter and rating a client sent, checked. */
import {
  ACTIVITY_STATUSES,
  INTENT_TYPES,
  type ActivityFilterInfo,
  type ActivityRating,
  type ActivityStatus,
  type IntentType,
} from '../../protocol/records.js';

const optional = <K extends string, V>(key: K, value: V | null | undefined): { [P in K]?: V } =>
  value === null || value === undefined ? {} : ({ [key]: value } as { [P in K]?: V });

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
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
      throw new Error(`${key} must be a non-negative number.`);
    return value;
  };
  const intentType = text('intentType');
  if (intentType !== undefined && !INTENT_TYPES.includes(intentType as IntentType))
    throw new Error(`intentType must be one of ${INTENT_TYPES.join(', ')}; got '${intentType}'.`);
  const status = text('status');
  if (status !== undefined && !ACTIVITY_STATUSES.includes(status as ActivityStatus))
    throw new Error(`status must be one of ${ACTIVITY_STATUSES.join(', ')}; got '${status}'.`);
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

export function parseRating(value: unknown): ActivityRating {
  if (value === 1 || value === -1 || value === 0) return value;
  throw new Error(`rating must be 1 (thumbs up), -1 (thumbs down) or 0 (none); got ${JSON.stringify(value)}.`);
}
