import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { firstStatement, holdsNoStatement, withoutLeadingComments } from '../../server/store/sql-text.js';
import { ENGINE_VARIABLE, loadSqlEngine, sqlJsEngine } from '../../server/store/sql-engine.js';
import { JournaledStore, Store, type WriteOp } from '../../server/store/store.js';
import { SqliteStore } from '../../server/store/sqlite-store.js';
import { nativeEngineOrReason, nodeSqliteEngineOrReason, nodeWithSqlite } from '../helpers/store-engines.js';
import { tempDir } from '../helpers/temp.js';

const event = (id: string): WriteOp => ({ op: 'insert', table: 'events', row: { id, at: 1, kind: 'test', detail: id } });

test('the store runs on better-sqlite3 where it loads, and on sql.js when GRIMOIRE_STORE_ENGINE=sql.js', async (t) => {
  const native = await nativeEngineOrReason();
  if (typeof native === 'string') return t.skip(native);
  assert.equal((await loadSqlEngine()).name, process.env[ENGINE_VARIABLE] === 'sql.js' ? 'sql.js' : 'better-sqlite3');
  const script = `require(${JSON.stringify(path.resolve(__dirname, '../../server/store/sql-engine.js'))}).loadSqlEngine().then((e) => process.stdout.write(e.name))`;
  const chosen = (env: Record<string, string>) => spawnSync(process.execPath, ['-e', script], { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' });
  assert.equal(chosen({}).stdout, 'better-sqlite3');
  const forced = chosen({ [ENGINE_VARIABLE]: 'sql.js' });
  assert.equal(forced.stdout, 'sql.js');
  assert.equal(forced.stderr, '', 'nothing said at the default log level');
});

test('a data dir in the journaled format (snapshot + journals, a dead writer\'s whole last line) moves into the database file without losing a record; sql.js then refuses the file', async (t) => {
  const native = await nativeEngineOrReason();
  if (typeof native === 'string') return t.skip(native);
  const wasm = await sqlJsEngine();
  const { dir: dataDir, cleanup } = tempDir('grimoire-engines-');
  t.after(cleanup);
  const journaled = await Store.open({ dataDir, engine: wasm });
  assert.ok(journaled instanceof JournaledStore);
  journaled.writeMany([event('compacted-1'), event('compacted-2')]);
  assert.equal(journaled.compact(), true);
  journaled.write(event('journal-only'));
  journaled.write({ op: 'upsert', table: 'events', row: { id: 'compacted-1', at: 2, kind: 'test', detail: 'updated in the journal' } });
  await journaled.close();
  // What a killed writer of that format leaves: a whole entry without its newline, in a journal of a dead pid.
  const dead = spawnSync(process.execPath, ['-e', '']).pid!;
  const killed = path.join(dataDir, 'journals', `${dead}-cafe.jsonl`);
  fs.writeFileSync(killed, JSON.stringify({ id: `${dead}-cafe:1`, ts: Date.now(), ops: [event('killed-tail')] }));
  const file = await Store.open({ dataDir, engine: native });
  t.after(() => file.close());
  assert.ok(file instanceof SqliteStore);
  assert.deepEqual(
    file.query<{ id: string; detail: string }>('SELECT id, detail FROM events ORDER BY id').map((row) => `${row.id}:${row.detail}`),
    ['compacted-1:updated in the journal', 'compacted-2:compacted-2', 'journal-only:journal-only', 'killed-tail:killed-tail'],
  );
  assert.deepEqual(fs.readdirSync(dataDir).filter((name) => name.startsWith('grimoire.') || name === 'journals').sort(), ['grimoire.db', 'grimoire.db-shm', 'grimoire.db-wal']);
  assert.ok(fs.existsSync(path.join(dataDir, 'journaled-store', 'grimoire.sqlite')), 'the old files are kept aside');
  await assert.rejects(Store.open({ dataDir, engine: wasm }), /grimoire\.db is a SQLite database file, which sql\.js cannot share/);
  file.write(event('after'));
  const again = await Store.open({ dataDir, engine: native });
  assert.equal(again.query<{ n: number }>('SELECT count(*) AS n FROM events')[0]!.n, 5, 'imported once, not again');
  await again.close();
});

test('better-sqlite3 and node:sqlite as sql.js: several statements prepare the first, and a parameter left out binds NULL', async (t) => {
  const others = [await nativeEngineOrReason(), await nodeSqliteEngineOrReason()].filter((engine) => typeof engine !== 'string');
  if (others.length === 0) return t.skip('neither better-sqlite3 nor node:sqlite loads in this process');
  for (const engine of [...others, await sqlJsEngine()]) {
    const db = engine.open();
    db.exec('CREATE TABLE t (a, b); INSERT INTO t VALUES (1, 2)');
    const statement = db.prepare("SELECT a, ';' AS s FROM t WHERE a = ? OR b IS ?; DELETE FROM t");
    statement.bind([1]);
    assert.equal(statement.step(), true, engine.name);
    assert.deepEqual(statement.get(), [1, ';'], engine.name);
    assert.deepEqual(statement.getColumnNames(), ['a', 's'], engine.name);
    statement.free();
    assert.deepEqual(db.exec('SELECT count(*) FROM t')[0]?.values, [[1]], `${engine.name}: the second statement did not run`);
    assert.deepEqual(db.exec('SELECT ? IS NULL', [])[0]?.values, [[1]], engine.name);
    db.close();
  }
  assert.equal(firstStatement("SELECT 'it''s; x' /* ; */ -- ;\n; DROP"), "SELECT 'it''s; x' /* ; */ -- ;\n;");
  assert.equal(firstStatement('SELECT "a;b", [c;d], `e;f`'), 'SELECT "a;b", [c;d], `e;f`');
  assert.equal(holdsNoStatement(' ; -- a\n/* b */;\n'), true);
  assert.equal(holdsNoStatement('; /* a */ DROP TABLE t'), false);
  assert.equal(withoutLeadingComments('  -- a\n/* b; */ SELECT 1 -- c'), 'SELECT 1 -- c');
});

test('node:sqlite: an image exports and opens again (schema, rows, indexes, user_version), leaving no file behind', async (t) => {
  const engine = await nodeSqliteEngineOrReason();
  if (typeof engine === 'string') return t.skip(engine);
  const leftovers = () => fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith('grimoire-sqlite-'));
  const before = leftovers();
  const db = engine.open();
  db.exec("CREATE TABLE t (id TEXT PRIMARY KEY, n INTEGER, b BLOB); CREATE INDEX t_n ON t (n); CREATE TABLE s (k INTEGER PRIMARY KEY AUTOINCREMENT, v TEXT); PRAGMA user_version = 7");
  db.run("INSERT INTO t VALUES ('a', 1, x'00ff'), ('b', 2, NULL)");
  db.run("INSERT INTO s (v) VALUES ('x'), ('y')");
  const image = db.export();
  db.close();
  const again = engine.open(image);
  assert.deepEqual(again.exec('SELECT id, n, b FROM t ORDER BY id')[0]?.values, [['a', 1, new Uint8Array([0, 255])], ['b', 2, null]]);
  assert.deepEqual(again.exec("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 't_n'")[0]?.values, [['t_n']]);
  assert.deepEqual(again.exec('PRAGMA user_version')[0]?.values, [[7]]);
  again.run("INSERT INTO s (v) VALUES ('z')");
  assert.deepEqual(again.exec("SELECT k FROM s WHERE v = 'z'")[0]?.values, [[3]], 'AUTOINCREMENT goes on from the image');
  again.close();
  assert.deepEqual(leftovers(), before);
});

const STORE_TEST_FILES = ['store.test.js', 'sqlite-store.test.js', 'store-apply-ops.test.js', 'store-database-export.test.js', 'activity-record.test.js', 'activity-retention.test.js', 'activity-table.test.js'];

/** Runs the store and activity test files again in a child on `node` with the engine forced; asserts they pass. */
function rerunStoreTests(node: string, engine: string, extraFiles: string[] = []): void {
  const files = [...STORE_TEST_FILES, ...extraFiles].map((file) => path.join(__dirname, file));
  // Without NODE_TEST_CONTEXT, which would make the inner runner report to this one instead of printing.
  const { NODE_TEST_CONTEXT: _context, ...env } = process.env;
  const run = spawnSync(node, ['--test', ...files], { env: { ...env, [ENGINE_VARIABLE]: engine }, encoding: 'utf8', timeout: 110_000 });
  assert.equal(run.status, 0, run.stdout.slice(-3_000));
  assert.match(run.stdout, /# fail 0/);
  assert.doesNotMatch(run.stdout, /# pass 0\b/);
}

test('the store and activity tests pass on sql.js too (the engine of VS Code before node:sqlite)', { timeout: 120_000 }, (t) => {
  if (process.env[ENGINE_VARIABLE]) return t.skip(`this run is the ${process.env[ENGINE_VARIABLE]} one`);
  rerunStoreTests(process.execPath, 'sql.js');
});

test('the store and activity tests, and these, pass on node:sqlite (the engine where better-sqlite3 does not load and Node has it)', { timeout: 120_000 }, (t) => {
  if (process.env[ENGINE_VARIABLE]) return t.skip(`this run is the ${process.env[ENGINE_VARIABLE]} one`);
  const found = nodeWithSqlite();
  if ('reason' in found) return t.skip(found.reason);
  rerunStoreTests(found.node, 'node:sqlite', ['store-engines.test.js']);
});

test('where better-sqlite3 does not load, Node 22 runs the store on node:sqlite, quietly, on the same database file better-sqlite3 opens, both ways', async (t) => {
  const found = nodeWithSqlite();
  if ('reason' in found) return t.skip(found.reason);
  const { dir: dataDir, cleanup } = tempDir('grimoire-engines-');
  t.after(cleanup);
  const storeJs = JSON.stringify(path.resolve(__dirname, '../../server/store/store.js'));
  const engineJs = JSON.stringify(path.resolve(__dirname, '../../server/store/sql-engine.js'));
  // better-sqlite3 is built for this Node's ABI: on another Node it does not load, as in VS Code.
  const child = (ids: string[], level: string) =>
    spawnSync(
      found.node,
      [
        '-e',
        `(async () => { const s = await require(${storeJs}).Store.open({ dataDir: ${JSON.stringify(dataDir)} }); for (const id of ${JSON.stringify(ids)}) s.write({ op: 'insert', table: 'events', row: { id, at: 1, kind: 'test', detail: id } }); s.write({ op: 'insert', table: 'events', row: { id: ${JSON.stringify(`${ids[0]}-journal`)}, at: 1, kind: 'test', detail: '' } }); process.stdout.write((await require(${engineJs}).loadSqlEngine()).name + ' ' + s.query('SELECT id FROM events ORDER BY id').map((r) => r.id).join(',')); await s.close(); })()`,
      ],
      { env: { PATH: process.env.PATH ?? '', GRIMOIRE_LOG: level }, encoding: 'utf8' },
    );
  const first = child(['a1', 'a2'], 'info');
  assert.equal(first.stdout, 'node:sqlite a1,a1-journal,a2', first.stderr);
  assert.equal(first.stderr, '', 'no ExperimentalWarning, nothing at the default log level');
  const expected = ['a1', 'a1-journal', 'a2'];
  const native = await nativeEngineOrReason();
  if (typeof native !== 'string') {
    const store = await Store.open({ dataDir, engine: native });
    assert.deepEqual(store.query<{ id: string }>('SELECT id FROM events ORDER BY id').map((row) => row.id), expected, 'node:sqlite -> better-sqlite3');
    store.write(event('better-sqlite3-row'));
    await store.close();
  }
  const back = child(['b1'], 'debug');
  assert.match(back.stdout, /^node:sqlite a1,a1-journal,a2,b1,b1-journal/, back.stderr);
  if (typeof native !== 'string') assert.match(back.stdout, /better-sqlite3-row/);
  assert.doesNotMatch(back.stderr, /ExperimentalWarning/);
});

test('without better-sqlite3 and node:sqlite the store runs on sql.js, and says so at debug level only', () => {
  // A preload that makes both unloadable, as in the .vsix (which does not carry better-sqlite3) on an Electron before node:sqlite.
  const hide =
    "const M = require('node:module'); const load = M._load; M._load = function (request, ...rest) { if (request === 'better-sqlite3' || request === 'node:sqlite') throw Object.assign(new Error(`Cannot find module '${request}'`), { code: 'MODULE_NOT_FOUND' }); return load.call(this, request, ...rest); };";
  const dataDir = tempDir('grimoire-engines-');
  try {
    const storeJs = JSON.stringify(path.resolve(__dirname, '../../server/store/store.js'));
    const engineJs = JSON.stringify(path.resolve(__dirname, '../../server/store/sql-engine.js'));
    const script = `${hide} (async () => { const s = await require(${storeJs}).Store.open({ dataDir: ${JSON.stringify(dataDir.dir)} }); s.write({ op: 'insert', table: 'events', row: { id: 'e1', at: 1, kind: 'k', detail: 'd' } }); process.stdout.write((await require(${engineJs}).loadSqlEngine()).name + ' ' + s.query('SELECT count(*) AS n FROM events')[0].n); await s.close(); })()`;
    const run = (level: string) => spawnSync(process.execPath, ['-e', script], { env: { PATH: process.env.PATH ?? '', GRIMOIRE_LOG: level }, encoding: 'utf8' });
    const quiet = run('info');
    assert.equal(quiet.stdout, 'sql.js 1', quiet.stderr);
    assert.equal(quiet.stderr, '');
    const told = run('debug');
    assert.equal(told.stdout, 'sql.js 1', told.stderr);
    assert.match(told.stderr, /store on sql\.js: better-sqlite3 did not load \(Cannot find module 'better-sqlite3'\) nor node:sqlite \(Cannot find module 'node:sqlite'\)/);
  } finally {
    dataDir.cleanup();
  }
});
