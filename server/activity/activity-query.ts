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

/**
 * A filter from URL query parameters or CLI flags (strings); a bad number is an error that says so.
 * `intent_type` is the older name of `intentType`.
 */
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
