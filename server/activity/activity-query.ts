import type { SqlValue } from '../store/store.js';

/** Filters shared by the CLI, the REST endpoint and the JSON-RPC protocol. */
export interface ActivityFilter {
  intentType?: string;
  status?: string;
  power?: string;
  tool?: string;
  /** A gateway user's name (`grimoire users add`). */
  user?: string;
  /** Epoch ms, inclusive. */
  since?: number;
  /** Epoch ms, exclusive. */
  until?: number;
  limit?: number;
}

export const MAX_LIMIT = 1000;

/** The WHERE clause and parameters for a filter (newest first, limited). */
export function activitySql(filter: ActivityFilter): { sql: string; params: SqlValue[] } {
  const where: string[] = [];
  const params: SqlValue[] = [];
  const add = (clause: string, value: SqlValue | undefined) => {
    if (value === undefined || value === '') return;
    where.push(clause);
    params.push(value);
  };
  add('a.operation_type = ?', filter.intentType);
  add('a.status = ?', filter.status);
  add('a.power = ?', filter.power);
  add('a.tool = ?', filter.tool);
  add('a.user_name = ?', filter.user);
  add('a.at >= ?', filter.since);
  add('a.at < ?', filter.until);
  const limit = Math.max(1, Math.min(MAX_LIMIT, filter.limit ?? 50));
  return {
    sql:
      'SELECT a.*, r.rating AS rating FROM activity a LEFT JOIN activity_ratings r ON r.activity_id = a.id' +
      (where.length ? ` WHERE ${where.join(' AND ')}` : '') +
      ' ORDER BY a.at DESC, a.id LIMIT ?',
    params: [...params, limit],
  };
}

/** A filter from URL query parameters or CLI flags (strings); a bad number is an error that says so. `intent_type` is the older name of `intentType`. */
export function parseActivityFilter(params: Record<string, string | undefined>): ActivityFilter {
  const number = (key: string): number | undefined => {
    const value = params[key];
    if (value === undefined || value === '') return undefined;
    const parsed = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
    if (Number.isNaN(parsed)) throw new Error(`${key} must be a number (epoch ms) or an ISO date, got '${value}'`);
    return parsed;
  };
  return {
    intentType: params.intentType ?? params.intent_type,
    status: params.status,
    power: params.power,
    tool: params.tool,
    user: params.user,
    since: number('since'),
    until: number('until'),
    limit: number('limit'),
  };
}
