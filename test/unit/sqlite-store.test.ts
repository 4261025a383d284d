/**
 * The database-file store (better-sqlite3 here; node:sqlite in the Node 22 rerun of
 * store-engines.test.ts): what the `Store` contract promises, on one file shared by connections
 * and processes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadSqlEngine } from '../../server/store/sql-engine.js';
import { DATABASE_FILE, SqliteStore } from '../../server/store/sqlite-store.js';
import type { WriteOp } from '../../server/store/store.js';
import { tempDir } from '../helpers/temp.js';

const event = (id: string, detail: string | null = null): WriteOp => ({
  op: 'insert',
  table: 'events',
  row: { id, at: 1, kind: 'test', power: 'p', detail },
});
const ids = (store: SqliteStore) =>
  store.query<{ id: string }>('SELECT id FROM events ORDER BY id').map((row) => row.id);

async function open(
  t: { after(fn: () => void): void },
  dataDir?: string,
  fsync = true,
): Promise<SqliteStore & { dir: string }> {
  const engine = await loadSqlEngine();
  if (!engine.openFile)
    throw new Error(`${engine.name} opens no file: this test runs where better-sqlite3 or node:sqlite loads`);
  let dir = dataDir;
  if (!dir) {
    const temp = tempDir('grimoire-sqlite-store-');
    t.after(temp.cleanup);
    dir = temp.dir;
  }
  const store = SqliteStore.open({ dataDir: dir, engine, fsync });
  t.after(() => store.close());
  return Object.assign(store, { dir });
}

test('two connections on one file: a commit is seen by the other at once, and moves its tableVersion', async (t) => {
  const engine = await loadSqlEngine();
  if (!engine.openFile) return t.skip(`${engine.name} opens no file`);
  const a = await open(t);
  const b = await open(t, a.dir);
  const before = b.tableVersion('events');
  a.write(event('e1'));
  assert.deepEqual(ids(b), ['e1']);
  assert.notEqual(b.tableVersion('events'), before, "another connection's commit");
  b.write(event('e2'));
  assert.deepEqual(ids(a), ['e1', 'e2']);
  const mine = b.tableVersion('events');
  b.write(event('e3'));
  assert.notEqual(b.tableVersion('events'), mine, "this connection's own write");
  assert.ok(fs.existsSync(path.join(a.dir, DATABASE_FILE)));
  // The file header's read and write versions (bytes 18 and 19) are 2 in WAL mode.
  const header = fs.readFileSync(path.join(a.dir, DATABASE_FILE)).subarray(18, 20);
  assert.deepEqual([...header], [2, 2], 'WAL mode');
});

test('a batch commits as a whole: an op that fails validation throws before anything is written', async (t) => {
  const engine = await loadSqlEngine();
  if (!engine.openFile) return t.skip(`${engine.name} opens no file`);
  const store = await open(t);
  assert.throws(
    () => store.writeMany([event('kept-out'), { op: 'insert', table: 'events', row: { id: 'x', nope: 1 } }]),
    /unknown column "nope"/,
  );
  assert.throws(
    () => store.write({ op: 'insert', table: 'no_such_table', row: { id: 'x' } }),
    /unknown table "no_such_table"/,
  );
  assert.deepEqual(ids(store), []);
  store.writeMany([event('a'), event('b'), { op: 'delete', table: 'events', where: { id: 'a' } }]);
  assert.deepEqual(ids(store), ['b']);
});

test('query() refuses what writes, and secrets are masked in what is written', async (t) => {
  const engine = await loadSqlEngine();
  if (!engine.openFile) return t.skip(`${engine.name} opens no file`);
  const store = await open(t);
  for (const sql of [
    "INSERT INTO events (id) VALUES ('x')",
    'DELETE FROM events',
    'BEGIN IMMEDIATE',
    'PRAGMA journal_mode = DELETE',
    "ATTACH 'x.db' AS x",
    'VACUUM',
  ]) {
    assert.throws(() => store.query(sql), /read-only/, sql);
  }
  store.write(event('s', 'token ghp_0123456789abcdefghijABCDEFGHIJ012345 leaked'));
  assert.doesNotMatch(
    String(store.query<{ detail: string }>('SELECT detail FROM events')[0]!.detail),
    /ghp_0123456789/,
  );
});

test('durable() resolves once the WAL is synced; close is idempotent and the store refuses use afterwards', async (t) => {
  const engine = await loadSqlEngine();
  if (!engine.openFile) return t.skip(`${engine.name} opens no file`);
  const store = await open(t);
  for (let i = 0; i < 50; i++) store.write(event(`e${i}`));
  await Promise.all([store.durable(), store.durable(), store.durable()]);
  store.close();
  store.close();
  assert.throws(() => store.query('SELECT 1'), /closed/);
  assert.throws(() => store.write(event('late')), /closed/);
  const again = await open(t, store.dir);
  assert.equal(ids(again).length, 50);
});

test(
  'processes opening a new data dir at once migrate it once; their writes all land',
  { timeout: 30_000 },
  async (t) => {
    const engine = await loadSqlEngine();
    if (!engine.openFile) return t.skip(`${engine.name} opens no file`);
    const temp = tempDir('grimoire-sqlite-store-');
    t.after(temp.cleanup);
    const storeJs = JSON.stringify(path.resolve(__dirname, '../../server/store/store.js'));
    const child = (prefix: string) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const script =
          `(async () => { const s = await require(${storeJs}).Store.open({ dataDir: ` +
          `${JSON.stringify(temp.dir)} }); for (let i = 0; i < 200; i++) s.write({ op: 'insert', table: ` +
          `'events', row: { id: '${prefix}-' + i, at: 1, kind: 'test' } }); s.close(); ` +
          `})().catch((e) => { console.error(e); process.exit(1); })`;
        const proc = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        proc.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
        proc.on('exit', (code) => resolve({ code, stderr }));
      });
    const results = await Promise.all(['a', 'b', 'c', 'd'].map(child));
    for (const result of results) assert.equal(result.code, 0, result.stderr);
    const store = await open(t, temp.dir);
    assert.equal(ids(store).length, 800);
    assert.equal(
      store.query<{ value: string }>("SELECT value FROM meta WHERE key = 'schema_version'")[0]!.value,
      String(Math.max(...(await import('../../server/store/migrations.js')).MIGRATIONS.map((m) => m.version))),
    );
  },
);

test('group commit: the writes of a moment get one WAL sync, 20 ms after the first, without durable(); none with fsync off', async (t) => {
  const engine = await loadSqlEngine();
  if (!engine.openFile) return t.skip(`${engine.name} opens no file`);
  const store = await open(t);
  const quiet = await open(t, undefined, false);
  // The 20 ms run on node:test's fake clock; the sync itself is real I/O.
  t.mock.timers.enable({ apis: ['setTimeout'] });
  for (let i = 0; i < 100; i++) store.write(event(`e${i}`));
  assert.equal(store.syncs, 0, 'not on the write path');
  t.mock.timers.tick(19);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(store.syncs, 0, 'not before 20 ms');
  t.mock.timers.tick(1);
  for (let turns = 0; store.syncs === 0 && turns < 10_000; turns++)
    await new Promise((resolve) => setImmediate(resolve));
  t.mock.timers.tick(200);
  assert.equal(store.syncs, 1, 'one sync for the 100 writes');
  quiet.write(event('q'));
  t.mock.timers.tick(100);
  await quiet.durable();
  assert.equal(quiet.syncs, 0);
});

test('processes opening a new data folder at the same moment all open it (the switch to WAL is waited for, as a write is)', async (t) => {
  const engine = await loadSqlEngine();
  if (!engine.openFile) return t.skip(`${engine.name} opens no file`);
  const temp = tempDir('grimoire-sqlite-together-');
  t.after(temp.cleanup);
  const storeJs = JSON.stringify(path.resolve(__dirname, '..', '..', 'server', 'store', 'store.js'));
  const at = Date.now() + 2_000;
  const child = (prefix: string) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const script =
        `(async () => { const { Store } = require(${storeJs}); while (Date.now() < ${at}); ` +
        `const s = await Store.open({ dataDir: ${JSON.stringify(temp.dir)} }); s.write({ op: ` +
        `'insert', table: 'events', row: { id: '${prefix}', at: 1, kind: 'test' } }); s.close(); ` +
        `})().catch((e) => { console.error(e); process.exit(1); })`;
      const proc = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      proc.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
      proc.on('exit', (code) => resolve({ code, stderr }));
    });
  const names = ['a', 'b', 'c', 'd', 'e', 'f'];
  const results = await Promise.all(names.map(child));
  for (const result of results) assert.equal(result.code, 0, result.stderr);
  const store = await open(t, temp.dir);
  assert.deepEqual(ids(store), names);
});

test('the newest-first listings and the expiry sweep of stored results are index searches, not table scans', async (t) => {
  const engine = await loadSqlEngine();
  if (!engine.openFile) return t.skip(`${engine.name} opens no file`);
  const store = await open(t);
  const plan = (sql: string) =>
    store
      .query<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
      .map((row) => row.detail)
      .join('; ');
  assert.match(
    plan('SELECT id, file FROM intel_artifacts WHERE expires_at <= 5'),
    /USING (COVERING )?INDEX intel_artifacts_expires/,
  );
  assert.match(plan('SELECT at, kind FROM events ORDER BY at DESC, id LIMIT 50'), /events_at/);
  assert.match(plan('SELECT at, hint FROM hint_events ORDER BY at DESC, id LIMIT 50'), /hint_events_at/);
});
