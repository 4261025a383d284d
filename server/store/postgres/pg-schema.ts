/**
 * The PostgreSQL schema: the store's versioned migrations (translated, see pg-sql.ts) plus the
 * change log replicas follow, applied under a session advisory lock so that replicas starting
 * together migrate once. A database of a newer schema version than this build is refused.
 */
import type { ClientBase } from 'pg';
import { latestVersion, MIGRATIONS, SCHEMA_VERSION_KEY, type Migration } from '../migrations.js';
import { pgMigrationStatements } from './pg-sql.js';

/** Advisory lock keys (arbitrary, fixed): migration, and the writers' commit order. */
export const MIGRATE_LOCK = 0x6772_6d01;
export const COMMIT_LOCK = 0x6772_6d02;
export const CHANGES_CHANNEL = 'grimoire_changes';

/** Every committed batch of ops, in commit order (writers hold COMMIT_LOCK): what replicas replay. */
const CHANGE_LOG = `
  CREATE TABLE IF NOT EXISTS grimoire_changes (
    seq BIGSERIAL PRIMARY KEY, origin TEXT NOT NULL, at DOUBLE PRECISION NOT NULL, ops TEXT NOT NULL
  )`;

export class NewerSchemaError extends Error {}

/** Applies pending migrations; returns the versions applied. Throws NewerSchemaError for a newer database. */
export async function migratePg(
  client: ClientBase,
  where: string,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number[]> {
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATE_LOCK]);
  try {
    await client.query('CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)');
    await client.query(CHANGE_LOG);
    const current = await pgSchemaVersion(client);
    const latest = latestVersion(migrations);
    if (current > latest) {
      throw new NewerSchemaError(
        `the database at ${where} has schema version ${current}, newer than this Grimoire's ${latest}: ` +
          `upgrade Grimoire on this machine (or use another database).`,
      );
    }
    const applied: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.version - b.version).filter((m) => m.version > current)) {
      await client.query('BEGIN');
      try {
        for (const statement of pgMigrationStatements(migration)) await client.query(statement);
        await client.query(
          'INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value',
          [SCHEMA_VERSION_KEY, String(migration.version)],
        );
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw new Error(`store migration ${migration.version} failed on PostgreSQL: ${(error as Error).message}`);
      }
      applied.push(migration.version);
    }
    return applied;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATE_LOCK]).catch(() => undefined);
  }
}

export async function pgSchemaVersion(client: ClientBase): Promise<number> {
  const result = await client.query<{ value: string }>('SELECT value FROM meta WHERE key = $1', [SCHEMA_VERSION_KEY]);
  return result.rows[0] ? Number(result.rows[0].value) : 0;
}
