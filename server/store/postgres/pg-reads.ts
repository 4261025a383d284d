/**
 * What a replica reads in PostgreSQL itself rather than in its read model: the tables that grow
 * with use are not held in memory; any query may be asked of the database through `read()`, in
 * the store's SQL written for SQLite (`?` parameters).
 */
import { tablesWhere } from '../migrations.js';

/** Tables left out of a replica's read model, read with `Store.read()`: the ones that grow with use (migrations.ts). */
export const DATABASE_ONLY_TABLES: ReadonlySet<string> = tablesWhere('growsWithUse', true);

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
