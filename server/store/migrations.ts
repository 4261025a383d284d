/**
 * Schema of the store: versioned migrations and, next to them, the key of every table that
 * logical write ops may touch (upsert / insert / delete are resolved against these keys).
 */
import { rowsOf, runOnce, type SqlDatabase as Database } from './sql-surface.js';

export interface Migration {
  version: number;
  sql: string;
}

/** Ordered; never edit a released entry, append a new version instead. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
      CREATE TABLE journal_watermarks (journal TEXT PRIMARY KEY, offset INTEGER);
      CREATE TABLE catalog_tools (
        power TEXT, tool TEXT, description TEXT, input_schema TEXT, annotations TEXT, hash TEXT,
        first_seen INTEGER, last_seen INTEGER, PRIMARY KEY (power, tool)
      );
      CREATE TABLE catalog_powers (power TEXT PRIMARY KEY, tools_hash TEXT, tool_count INTEGER, refreshed_at INTEGER);
      CREATE TABLE catalog_changes (
        id TEXT PRIMARY KEY, power TEXT, tool TEXT, kind TEXT, old_hash TEXT, new_hash TEXT, at INTEGER
      );
      CREATE TABLE events (id TEXT PRIMARY KEY, at INTEGER, kind TEXT, power TEXT, detail TEXT);
    `,
  },
  {
    version: 2,
    sql: `
      CREATE TABLE activity (
        id TEXT PRIMARY KEY, at INTEGER, session TEXT, power TEXT, tool TEXT, variant TEXT,
        operation_type TEXT, data_sensitivity TEXT, reason TEXT, decision TEXT, decision_reason TEXT,
        status TEXT, error TEXT, latency_ms INTEGER, result_bytes INTEGER
      );
      CREATE INDEX activity_power_tool ON activity (power, tool, at);
      CREATE INDEX activity_at ON activity (at);
      CREATE TABLE activity_ratings (activity_id TEXT PRIMARY KEY, rating INTEGER, at INTEGER);
      CREATE TABLE recommendations (
        id TEXT PRIMARY KEY, at INTEGER, session TEXT, source TEXT, query TEXT, candidates TEXT,
        used TEXT, used_rank INTEGER, used_at INTEGER
      );
      CREATE INDEX recommendations_session ON recommendations (session, at);
      CREATE TABLE embeddings (key TEXT PRIMARY KEY, model TEXT, dim INTEGER, vector TEXT, at INTEGER);
      CREATE TABLE ranking_weights (id TEXT PRIMARY KEY, weights TEXT, at INTEGER, samples INTEGER, mrr_before REAL, mrr_after REAL);
    `,
  },
  {
    version: 3,
    sql: `
      CREATE TABLE hint_events (
        id TEXT PRIMARY KEY, at INTEGER, session TEXT, power TEXT, tool TEXT, kind TEXT, hint TEXT,
        source TEXT, suggested TEXT, outcome TEXT, resolved_at INTEGER
      );
      CREATE INDEX hint_events_session ON hint_events (session, at);
      ALTER TABLE activity ADD COLUMN audit INTEGER;
    `,
  },
  {
    version: 4,
    sql: `
      CREATE TABLE intel_artifacts (
        id TEXT PRIMARY KEY, at INTEGER, expires_at INTEGER, power TEXT, tool TEXT, args_hash TEXT, args TEXT,
        read_only INTEGER, summary TEXT, summarizer TEXT, raw_bytes INTEGER, raw_chars INTEGER, file TEXT,
        fingerprint TEXT, search_text TEXT, structured TEXT
      );
      CREATE INDEX intel_artifacts_call ON intel_artifacts (power, tool, args_hash, at);
      CREATE INDEX intel_artifacts_at ON intel_artifacts (at);
      CREATE TABLE intel_calls (
        id TEXT PRIMARY KEY, at INTEGER, power TEXT, tool TEXT, artifact_id TEXT, summarizer TEXT, cache TEXT,
        stored INTEGER, raw_bytes INTEGER, raw_tokens INTEGER, delivered_tokens INTEGER
      );
      CREATE INDEX intel_calls_at ON intel_calls (at);
      CREATE INDEX intel_calls_artifact ON intel_calls (artifact_id);
      CREATE TABLE intel_power_writes (power TEXT PRIMARY KEY, at INTEGER);
    `,
  },
  {
    version: 5,
    sql: `
      CREATE TABLE trust_powers (power TEXT PRIMARY KEY, first_seen INTEGER);
      CREATE TABLE tool_pins (
        power TEXT, tool TEXT, hash TEXT, description TEXT, input_schema TEXT, annotations TEXT, approved_at INTEGER,
        PRIMARY KEY (power, tool)
      );
      CREATE TABLE tool_reviews (
        power TEXT, tool TEXT, kind TEXT, status TEXT, old_hash TEXT, new_hash TEXT,
        old_description TEXT, new_description TEXT, old_schema TEXT, new_schema TEXT, old_annotations TEXT, new_annotations TEXT,
        diff TEXT, suspicious TEXT, seen_at INTEGER, decided_at INTEGER,
        PRIMARY KEY (power, tool)
      );
    `,
  },
  {
    version: 6,
    sql: `
      CREATE TABLE users (
        name TEXT PRIMARY KEY, role TEXT, token_id TEXT, token_salt TEXT, token_hash TEXT, created_at INTEGER
      );
      CREATE INDEX users_token ON users (token_id);
      ALTER TABLE activity ADD COLUMN user_name TEXT;
      CREATE INDEX activity_user ON activity (user_name, at);
    `,
  },
  {
    // Learned requests: a request that led to a successful call joins its power's and
    // tool's search document.
    version: 7,
    sql: `
      CREATE TABLE learned_requests (id TEXT PRIMARY KEY, at INTEGER, power TEXT, tool TEXT, query TEXT, session TEXT);
      CREATE INDEX learned_requests_power ON learned_requests (power, at);
    `,
  },
  {
    // Artifact bodies kept in the store when it spans machines (PostgreSQL): every
    // replica reads what another stored. `file` is intel_artifacts.file; `encoding` is 'json' when
    // the body holds what PostgreSQL text cannot (NUL, a lone surrogate), else 'text'.
    version: 8,
    sql: `
      CREATE TABLE artifact_bodies (file TEXT PRIMARY KEY, body TEXT, encoding TEXT, at INTEGER);
    `,
  },
  {
    // Calls over stdio and of a single user have no user: the index by user holds only the calls
    // that do, so recording the others updates one index fewer. A filter by user (user_name = ?)
    // implies IS NOT NULL, so it still uses the index.
    version: 9,
    sql: `
      DROP INDEX activity_user;
      CREATE INDEX activity_user ON activity (user_name, at) WHERE user_name IS NOT NULL;
    `,
  },
  {
    // A stored result belongs to the user whose call made it: only they read or search
    // it. NULL: a call with no user (stdio, the gateway's own token, rows stored before this).
    version: 10,
    sql: `
      ALTER TABLE intel_artifacts ADD COLUMN owner TEXT;
    `,
  },
  {
    // What each server says of itself at listing time: serverInfo's title and
    // description and its instructions, the guidance and description of an imported power.
    version: 11,
    sql: `
      ALTER TABLE catalog_powers ADD COLUMN server_title TEXT;
      ALTER TABLE catalog_powers ADD COLUMN server_description TEXT;
      ALTER TABLE catalog_powers ADD COLUMN instructions TEXT;
    `,
  },
  {
    // Since PostgreSQL replicas read these tables in the database, their newest-first
    // listings and the expiry sweep run before each stored result are index scans, not table scans.
    version: 12,
    sql: `
      CREATE INDEX events_at ON events (at);
      CREATE INDEX hint_events_at ON hint_events (at);
      CREATE INDEX intel_artifacts_expires ON intel_artifacts (expires_at);
    `,
  },
  {
    // Retention's range delete of old recommendations (server/activity/history-retention.ts).
    version: 13,
    sql: `CREATE INDEX recommendations_at ON recommendations (at);`,
  },
  {
    // A server from the workspace or an imported config runs only once the user approved its exact
    // launch definition (server/trust/launch-approvals.ts): `hash` is the definition's, `approved_by`
    // the team user who approved it (NULL: the owner, the CLI or the admin token).
    version: 14,
    sql: `CREATE TABLE launch_approvals (power TEXT PRIMARY KEY, hash TEXT, approved_by TEXT, approved_at INTEGER);`,
  },
  {
    // The user's confirmation that a tool with no read/write annotation only reads, pinned to the
    // version of the tool confirmed (its trust hash): a changed tool is not read-only until confirmed again.
    version: 15,
    sql: `CREATE TABLE read_confirmations (power TEXT, tool TEXT, hash TEXT, confirmed_at INTEGER, PRIMARY KEY (power, tool));`,
  },
  {
    // Each server's last tool list by its launch definition (PowerDefinition.serverHash): a power
    // imported under another name, or started again, is ranked on it before its server is listed.
    version: 16,
    sql: `
      CREATE TABLE server_tool_lists (server_hash TEXT PRIMARY KEY, tools TEXT, words TEXT, listed_at INTEGER);
      CREATE INDEX server_tool_lists_at ON server_tool_lists (listed_at);
    `,
  },
  {
    // The protocol revision each power's server spoke at its last listing (2026-07-28 or a 2025 one).
    version: 18,
    sql: `ALTER TABLE catalog_powers ADD COLUMN protocol_version TEXT;`,
  },
  {
    // Each tool as its server listed it (output schema, title and all), so that its tokens are counted
    // the same after a restart as in the session that listed it.
    version: 20,
    sql: `ALTER TABLE catalog_tools ADD COLUMN definition TEXT;`,
  },
  {
    // What a modern HTTP user's session holds across requests, so that every replica of a team gateway
    // tells the agent the same (server/gateway/sessions/shared-user-state.ts): `session` is the user's
    // ('modern:<user>'), `kind` 'active' (a power active for the user), 'shown' (guidance given once),
    // 'completed' or 'suggested' (the hint context: a tool that completed, one a prerequisite was suggested for).
    version: 21,
    sql: `CREATE TABLE session_state (session TEXT, kind TEXT, item TEXT, at INTEGER, PRIMARY KEY (session, kind, item));`,
  },
  {
    // Long calls of 2026-07-28 clients answered as tasks, so that every replica of a team gateway answers
    // for them (server/gateway/sessions/shared-tasks.ts): `kind` 'view' is the task as its running replica
    // last wrote it (JSON in `body`), 'update' and 'cancel' a request another replica passed on to it.
    version: 22,
    sql: `CREATE TABLE call_tasks (task_id TEXT, kind TEXT, owner TEXT, body TEXT, at INTEGER, PRIMARY KEY (task_id, kind));`,
  },
];

/** What the store needs to know of a table that logical write ops may touch. */
export interface TableDeclaration {
  /** The primary key: upsert conflicts on it, insert is INSERT OR IGNORE on it. */
  key: readonly string[];
  /**
   * It gains rows with use (a log, results, history, every text embedded), or is read fresh on each
   * request that needs it: PostgreSQL keeps it out of a replica's read model, and its readers ask
   * with `Store.read` (postgres/pg-reads.ts). The small tables (catalog, pins and reviews, trust,
   * users, ranking weights, learned requests capped per power) stay in the model.
   */
  growsWithUse: boolean;
  /**
   * 'masked': secrets are masked in its text before it is written (masked-op.ts). 'verbatim': what
   * servers publish about their tools (the review must show it exactly), derived vectors, artifact
   * bodies (read_artifact returns a tool's result as it came), or JSON its writer masks value by value.
   */
  text: 'masked' | 'verbatim';
}

/** Every table writable through logical ops. `meta` and `journal_watermarks` are store-internal. */
export const TABLES: Readonly<Record<string, TableDeclaration>> = {
  catalog_tools: { key: ['power', 'tool'], growsWithUse: false, text: 'verbatim' },
  catalog_powers: { key: ['power'], growsWithUse: false, text: 'verbatim' },
  catalog_changes: { key: ['id'], growsWithUse: true, text: 'masked' },
  events: { key: ['id'], growsWithUse: true, text: 'masked' },
  activity: { key: ['id'], growsWithUse: true, text: 'masked' },
  activity_ratings: { key: ['activity_id'], growsWithUse: true, text: 'masked' },
  recommendations: { key: ['id'], growsWithUse: true, text: 'masked' },
  embeddings: { key: ['key'], growsWithUse: true, text: 'verbatim' },
  ranking_weights: { key: ['id'], growsWithUse: false, text: 'masked' },
  hint_events: { key: ['id'], growsWithUse: true, text: 'masked' },
  intel_artifacts: { key: ['id'], growsWithUse: true, text: 'masked' },
  intel_calls: { key: ['id'], growsWithUse: true, text: 'masked' },
  intel_power_writes: { key: ['power'], growsWithUse: false, text: 'masked' },
  trust_powers: { key: ['power'], growsWithUse: false, text: 'masked' },
  tool_pins: { key: ['power', 'tool'], growsWithUse: false, text: 'verbatim' },
  tool_reviews: { key: ['power', 'tool'], growsWithUse: false, text: 'verbatim' },
  users: { key: ['name'], growsWithUse: false, text: 'masked' },
  learned_requests: { key: ['id'], growsWithUse: false, text: 'masked' },
  artifact_bodies: { key: ['file'], growsWithUse: true, text: 'verbatim' },
  launch_approvals: { key: ['power'], growsWithUse: false, text: 'masked' },
  read_confirmations: { key: ['power', 'tool'], growsWithUse: false, text: 'masked' },
  server_tool_lists: { key: ['server_hash'], growsWithUse: false, text: 'masked' },
  session_state: { key: ['session', 'kind', 'item'], growsWithUse: true, text: 'masked' },
  call_tasks: { key: ['task_id', 'kind'], growsWithUse: true, text: 'verbatim' },
};

/** Each table's key columns. */
export const TABLE_KEYS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  Object.entries(TABLES).map(([table, declared]) => [table, declared.key]),
);

/** The tables whose declaration says `property` is `value`. */
export function tablesWhere<K extends keyof TableDeclaration>(property: K, value: TableDeclaration[K]): Set<string> {
  return new Set(Object.keys(TABLES).filter((table) => TABLES[table]![property] === value));
}

export const SCHEMA_VERSION_KEY = 'schema_version';

export function latestVersion(migrations: readonly Migration[] = MIGRATIONS): number {
  return migrations.reduce((max, m) => Math.max(max, m.version), 0);
}

/** The schema version recorded in `meta`, 0 for an empty database. */
export function schemaVersion(db: Database): number {
  const hasMeta = rowsOf(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'");
  if (hasMeta.length === 0) return 0;
  const value = rowsOf<{ value: string | null }>(db, 'SELECT value FROM meta WHERE key = ?', [SCHEMA_VERSION_KEY])[0]
    ?.value;
  return value === undefined || value === null ? 0 : Number(value);
}

/**
 * Applies the pending migrations in version order, each in its own transaction together with the
 * version bump. Returns the versions applied (empty when the schema is current).
 */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): number[] {
  const pending = [...migrations].sort((a, b) => a.version - b.version).filter((m) => m.version > schemaVersion(db));
  const applied: number[] = [];
  for (const migration of pending) {
    // IMMEDIATE, and the version read again inside: another process on the same file may have just applied it.
    db.exec('BEGIN IMMEDIATE');
    try {
      if (schemaVersion(db) >= migration.version) {
        db.exec('COMMIT');
        continue;
      }
      db.exec(migration.sql);
      db.exec('CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)');
      runOnce(db, 'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value', [
        SCHEMA_VERSION_KEY,
        String(migration.version),
      ]);
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw new Error(
        `store migration ${migration.version} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    applied.push(migration.version);
  }
  return applied;
}
