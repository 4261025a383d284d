import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { firstStatement } from '../../server/store/native-sqlite.js';
import { ENGINE_VARIABLE, loadSqlEngine, sqlJsEngine } from '../../server/store/sql-engine.js';
import { Store, type WriteOp } from '../../server/store/store.js';
import { nativeEngineOrReason } from '../helpers/store-engines.js';
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

test('a data dir written on one engine opens on the other, both ways, snapshot and journal', async (t) => {
  const native = await nativeEngineOrReason();
  if (typeof native === 'string') return t.skip(native);
  const wasm = await sqlJsEngine();
  for (const [first, second] of [
    [native, wasm],
    [wasm, native],
  ]) {
    const { dir: dataDir, cleanup } = tempDir('grimoire-engines-');
    t.after(cleanup);
    const a = await Store.open({ dataDir, engine: first });
    a.writeMany([event('compacted-1'), event('compacted-2')]);
    assert.equal(a.compact(), true);
    a.write(event('journal-only'));
    await a.close();
    const b = await Store.open({ dataDir, engine: second });
    assert.deepEqual(
      b.query<{ id: string }>('SELECT id FROM events ORDER BY id').map((row) => row.id),
      ['compacted-1', 'compacted-2', 'journal-only'],
      `${first.name} -> ${second.name}`,
    );
    await b.close();
  }
});

test('better-sqlite3 as sql.js: several statements prepare the first, and a parameter left out binds NULL', async (t) => {
  const native = await nativeEngineOrReason();
  if (typeof native === 'string') return t.skip(native);
  for (const engine of [native, await sqlJsEngine()]) {
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
});

test('the store and activity tests pass on sql.js too (the engine VS Code uses)', { timeout: 120_000 }, (t) => {
  if (process.env[ENGINE_VARIABLE] === 'sql.js') return t.skip('this run is the sql.js one');
  const unit = __dirname;
  const files = ['store.test.js', 'store-apply-ops.test.js', 'store-database-export.test.js', 'activity-record.test.js', 'activity-retention.test.js', 'activity-table.test.js', 'activity-write-behind.test.js'].map((file) => path.join(unit, file));
  // Without NODE_TEST_CONTEXT, which would make the inner runner report to this one instead of printing.
  const { NODE_TEST_CONTEXT: _context, ...env } = process.env;
  const run = spawnSync(process.execPath, ['--test', ...files], { env: { ...env, [ENGINE_VARIABLE]: 'sql.js' }, encoding: 'utf8', timeout: 110_000 });
  assert.equal(run.status, 0, run.stdout.slice(-3_000));
  assert.match(run.stdout, /# fail 0/);
  assert.doesNotMatch(run.stdout, /# pass 0\b/);
});

test('without better-sqlite3 the store runs on sql.js, and says so at debug level only', () => {
  // A preload that makes better-sqlite3 unresolvable, as in the .vsix (which does not carry it).
  const hide = "const M = require('node:module'); const resolve = M._resolveFilename; M._resolveFilename = function (request, ...rest) { if (request === 'better-sqlite3') throw Object.assign(new Error(\"Cannot find module 'better-sqlite3'\"), { code: 'MODULE_NOT_FOUND' }); return resolve.call(this, request, ...rest); };";
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
    assert.match(told.stderr, /store on sql\.js: better-sqlite3 did not load \(Cannot find module 'better-sqlite3'\)/);
  } finally {
    dataDir.cleanup();
  }
});
