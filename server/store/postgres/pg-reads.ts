/**
 * What a replica reads in PostgreSQL itself rather than in its read model: the tables that grow
 * with use are not held in memory; any query may be asked of the database through `read()`, in
 * the store's SQL written for SQLite (`?` parameters).
 */

/**
 * Tables left out of a replica's read model, read with `Store.read()`: each gains rows with use:
 * the activity log and its ratings, the stored results (`intel_artifacts`, bounded only by their
 * TTL and byte cap, so by the rate of calls) and their bodies, the event log, the recommendations
 * shown, the hints shown, the token counts of every summarized call, the catalog's change
 * history, the embeddings of every text embedded; and each modern user's session state and call
 * tasks, read fresh on each request that needs them (another replica may have changed them). What stays in the
 * model is small: the catalog, pins and reviews, trust, users, ranking weights, learned requests
 * (capped per power) and the per-power write times.
 */
export const DATABASE_ONLY_TABLES: ReadonlySet<string> = new Set([
  'activity',
  'activity_ratings',
  'artifact_bodies',
  'events',
  'recommendations',
  'hint_events',
  'intel_calls',
  'intel_artifacts',
  'catalog_changes',
  'embeddings',
  'session_state',
  'call_tasks',
]);

const MENTIONS = new RegExp(`\\b(${[...DATABASE_ONLY_TABLES].join('|')})\\b`);

/** The first database-only table the SQL names, if any (a synchronous query of it cannot be answered). */
export function databaseOnlyTable(sql: string): string | undefined {
  return MENTIONS.exec(sql)?.[1];
}

/** SQLite's `?` parameters as PostgreSQL's `$1, $2, ...`; a `?` inside a quoted literal or name stays. */
export function pgParameters(sql: string): string {
  let out = '';
  let quote: string | undefined;
  let n = 0;
  for (const c of sql) {
    if (quote) {
      if (c === quote) quote = undefined;
      out += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      out += c;
    } else out += c === '?' ? `$${++n}` : c;
  }
  return out;
}
