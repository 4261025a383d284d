/**
 * Structure that must stay as ARCHITECTURE.md says: each of these tables is queried and written by
 * its owner module only, and the disabled/blocked settings are read by the tool policy only.
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

const server = sources(path.join(repoRoot, 'server')).map((file) => ({ file: path.relative(repoRoot, file).split(path.sep).join('/'), text: fs.readFileSync(file, 'utf8') }));

function filesMatching(pattern: RegExp): string[] {
  return server.filter((source) => pattern.test(source.text)).map((source) => source.file).sort();
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
  const owners = filesMatching(/(FROM|JOIN|INTO|UPDATE)\s+events\b|table:\s*'events'/).filter((file) => !file.startsWith('server/store/') || file.includes('/postgres/pg-writer'));
  assert.deepEqual(owners, ['server/activity/event-log.ts']);
});

test('only the tool policy reads powers.disabled and tools.blocked', () => {
  const readers = filesMatching(/\.powers\.disabled\b|\.tools\.blocked\b|powers:\s*\{\s*disabled\b.*\.includes/);
  assert.deepEqual(readers, ['server/trust/tool-policy.ts']);
});
