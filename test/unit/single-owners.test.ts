/**
 * Structure that must stay as ARCHITECTURE.md says: each of these tables is queried and written by
 * its owner module only, the disabled/blocked settings are read by the tool policy only, and the
 * JSON-RPC handlers see ports, not Gateway.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../helpers/temp.js';

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return entry.name.endsWith('.ts') ? [file] : [];
  });
}

const server = sources(path.join(repoRoot, 'server')).map((file) => ({
  file: path.relative(repoRoot, file).split(path.sep).join('/'),
  text: fs.readFileSync(file, 'utf8'),
}));

function filesMatching(pattern: RegExp): string[] {
  return server
    .filter((source) => pattern.test(source.text))
    .map((source) => source.file)
    .sort();
}

test('the sources are found (the checks below could fail)', () => {
  assert.ok(server.length > 100, `only ${server.length} server sources found`);
  assert.ok(filesMatching(/FROM activity\b/).length > 0);
});

test('only activity-table.ts speaks SQL to activity and activity_ratings (migrations and backends aside)', () => {
  const pattern = /(FROM|JOIN|INTO|UPDATE)\s+activity(_ratings)?\b|table:\s*'activity(_ratings)?'/;
  const owners = filesMatching(pattern).filter((file) => !file.startsWith('server/store/'));
  assert.deepEqual(owners, ['server/activity/activity-table.ts']);
});

test('only event-log.ts speaks SQL to events', () => {
  const owners = filesMatching(/(FROM|JOIN|INTO|UPDATE)\s+events\b|table:\s*'events'/).filter(
    (file) => !file.startsWith('server/store/') || file.includes('/postgres/pg-writer'),
  );
  assert.deepEqual(owners, ['server/activity/event-log.ts']);
});

test('only the tool policy reads powers.disabled and tools.blocked', () => {
  const readers = filesMatching(/\.powers\.disabled\b|\.tools\.blocked\b|powers:\s*\{\s*disabled\b.*\.includes/);
  assert.deepEqual(readers, ['server/trust/tool-policy.ts']);
});

/** The one module outside the store's backends that holds the statements on each table. */
const OWNERS: Record<string, string> = {
  activity: 'server/activity/activity-table.ts',
  activity_ratings: 'server/activity/activity-table.ts',
  artifact_bodies: 'server/intel/artifacts/store-files.ts',
  call_tasks: 'server/gateway/sessions/shared-tasks.ts',
  catalog_changes: 'server/catalog/catalog.ts',
  catalog_powers: 'server/catalog/catalog.ts',
  catalog_tools: 'server/catalog/catalog.ts',
  embeddings: 'server/text/embedding-cache.ts',
  events: 'server/activity/event-log.ts',
  hint_events: 'server/hints/hint-events.ts',
  intel_artifacts: 'server/intel/artifacts/artifact-store.ts',
  intel_calls: 'server/intel/accounting/intel-calls-table.ts',
  intel_power_writes: 'server/intel/cache/result-cache.ts',
  launch_approvals: 'server/trust/launch-approvals.ts',
  learned_requests: 'server/ranking/learned-requests.ts',
  ranking_weights: 'server/ranking/weights-store.ts',
  read_confirmations: 'server/trust/read-confirmations.ts',
  recommendations: 'server/ranking/recommendations.ts',
  server_tool_lists: 'server/catalog/server-tool-lists.ts',
  session_state: 'server/gateway/sessions/shared-user-state.ts',
  tool_pins: 'server/trust/pins.ts',
  tool_reviews: 'server/trust/pins.ts',
  trust_powers: 'server/trust/pins.ts',
  users: 'server/users/user-directory.ts',
};

test('every table outside the store itself has one owner module (statements, write ops, or a table-name constant)', () => {
  const migrations = server.find((source) => source.file === 'server/store/migrations.ts')!.text;
  const tables = [...migrations.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?([a-z_]+)/g)].map((m) => m[1]!);
  assert.ok(tables.length >= 20, `only ${tables.length} tables found in migrations.ts`);
  const speakers = (table: string) =>
    filesMatching(new RegExp(`(FROM|JOIN|INTO|UPDATE)\\s+${table}\\b|table:\\s*'${table}'|=\\s*'${table}';`)).filter(
      (file) => !file.startsWith('server/store/'),
    );
  const found = Object.fromEntries(
    tables.map((table) => [table, speakers(table)]).filter(([, files]) => files.length > 0),
  );
  assert.deepEqual(found, Object.fromEntries(Object.entries(OWNERS).map(([table, file]) => [table, [file]])));
});

test('the JSON-RPC handlers take ports, not Gateway (serve-again.ts only serves its HTTP endpoint)', () => {
  const importers = filesMatching(/from '\.\.\/gateway\/gateway\.js'/).filter((file) => file.startsWith('server/rpc/'));
  assert.deepEqual(importers, ['server/rpc/serve-again.ts']);
});
