import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ENGINE_VARIABLE, loadSqlEngine, sqlJsEngine, type SqlEngine } from '../../server/store/sql-engine.js';
import { rowsOf, runOnce } from '../../server/store/sql-surface.js';
import { migrate } from '../../server/store/migrations.js';
import { SqljsStore, Store, type WriteOp } from '../../server/store/store.js';
import { SqliteStore } from '../../server/store/sqlite-store.js';
import { nativeEngineOrReason, nodeSqliteEngineOrReason, nodeWithSqlite } from '../helpers/store-engines.js';
import { tempDir } from '../helpers/temp.js';
import { oldestNode, VSCODE_OLDEST_NODE } from '../helpers/node22.js';

const event = (id: string): WriteOp => ({
  op: 'insert',
  table: 'events',
  row: { id, at: 1, kind: 'test', detail: id },
});

test('the store runs on better-sqlite3 where it loads, and on sql.js when GRIMOIRE_STORE_ENGINE=sql.js', async (t) => {
  const native = await nativeEngineOrReason();
  if (typeof native === 'string') return t.skip(native);
  assert.equal((await loadSqlEngine()).name, process.env[ENGINE_VARIABLE] === 'sql.js' ? 'sql.js' : 'better-sqlite3');
  const script =
    `require(${JSON.stringify(path.resolve(__dirname, '../../server/store/sql-engine.js'))}` +
    `).loadSqlEngine().then((e) => process.stdout.write(e.name))`;
  const chosen = (env: Record<string, string>) =>
    spawnSync(process.execPath, ['-e', script], { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' });
  assert.equal(chosen({}).stdout, 'better-sqlite3');
  const forced = chosen({ [ENGINE_VARIABLE]: 'sql.js' });
  assert.equal(forced.stdout, 'sql.js');
  assert.equal(forced.stderr, '', 'nothing said at the default log level');
});

/**
 * What an earlier release's journaled store left: a snapshot with watermarks, per-process journals (owners
 * gone), one ending in a whole line without its newline.
 */
async function earlierFormat(dataDir: string): Promise<void> {
  const dead = spawnSync(process.execPath, ['-e', '']).pid!;
  const line = (journal: string, seq: number, op: WriteOp, ts: number) =>
    JSON.stringify({ id: `${journal.slice(0, -6)}:${seq}`, ts, ops: [op] }) + '\n';
  const db = (await sqlJsEngine()).open();
  migrate(db);
  runOnce(
    db,
    "INSERT INTO events (id, at, kind, detail) VALUES ('compacted-1', 1, 'test', 'compacted-1'), ('compacted-2', 1, 'test', 'compacted-2')",
  );
  const folded = line(`${dead}-a.jsonl`, 1, event('compacted-2'), 1);
  runOnce(db, 'INSERT INTO journal_watermarks (journal, offset) VALUES (?, ?)', [
    `${dead}-a.jsonl`,
    Buffer.byteLength(folded),
  ]);
  fs.writeFileSync(path.join(dataDir, 'grimoire.sqlite'), db.export());
  db.close();
  fs.mkdirSync(path.join(dataDir, 'journals'));
  const update: WriteOp = {
    op: 'upsert',
    table: 'events',
    row: { id: 'compacted-1', at: 2, kind: 'test', detail: 'updated in the journal' },
  };
  fs.writeFileSync(
    path.join(dataDir, 'journals', `${dead}-a.jsonl`),
    folded + line(`${dead}-a.jsonl`, 2, event('journal-only'), 2) + line(`${dead}-a.jsonl`, 3, update, 4),
  );
  fs.writeFileSync(
    path.join(dataDir, 'journals', `${dead}-b.jsonl`),
    line(`${dead}-b.jsonl`, 1, event('killed-tail'), 3).trimEnd(),
  );
}

/** What this release's sql.js store leaves: a snapshot (after a compaction), its journal, and a killed writer's torn line. */
async function sqljsFormat(dataDir: string): Promise<void> {
  const store = await Store.open({ dataDir, engine: await sqlJsEngine(), compactBytes: 600 });
  assert.ok(store instanceof SqljsStore);
  store.writeMany([event('compacted-1'), event('compacted-2')]);
  for (let i = 0; !fs.existsSync(path.join(dataDir, 'journals', 'journal-2.jsonl')); i++)
    store.write({
      op: 'insert',
      table: 'events',
      row: { id: `filler-${i}`, at: 1, kind: 'filler', detail: 'x'.repeat(200) },
    });
  store.write(event('journal-only'));
  store.write({
    op: 'upsert',
    table: 'events',
    row: { id: 'compacted-1', at: 2, kind: 'test', detail: 'updated in the journal' },
  });
  store.write(event('killed-tail'));
  await store.close();
  fs.appendFileSync(
    path.join(dataDir, 'journals', 'journal-2.jsonl'),
    '{"id":"journal-2:9999","ts":1,"ops":[{"op":"ins',
  );
}

for (const [format, make] of [
  ["an earlier release's per-process journals", earlierFormat],
  ["this release's sql.js store", sqljsFormat],
] as const) {
  test(
    `a data dir of ${format} moves into the database file on the first native open without losing a ` +
      `record; sql.js then refuses the file`,
    async (t) => {
      const native = await nativeEngineOrReason();
      if (typeof native === 'string') return t.skip(native);
      const { dir: dataDir, cleanup } = tempDir('grimoire-engines-');
      t.after(cleanup);
      await make(dataDir);
      const file = await Store.open({ dataDir, engine: native });
      t.after(() => file.close());
      assert.ok(file instanceof SqliteStore);
      assert.deepEqual(
        file
          .query<{ id: string; detail: string }>("SELECT id, detail FROM events WHERE kind <> 'filler' ORDER BY id")
          .map((row) => `${row.id}:${row.detail}`),
        [
          'compacted-1:updated in the journal',
          'compacted-2:compacted-2',
          'journal-only:journal-only',
          'killed-tail:killed-tail',
        ],
      );
      assert.deepEqual(
        fs
          .readdirSync(dataDir)
          .filter((name) => name.startsWith('grimoire.') || name === 'journals')
          .sort(),
        ['grimoire.db', 'grimoire.db-shm', 'grimoire.db-wal'],
      );
      assert.ok(
        fs.existsSync(path.join(dataDir, 'journaled-store', 'grimoire.sqlite')),
        'the old files are kept aside',
      );
      await assert.rejects(
        Store.open({ dataDir, engine: await sqlJsEngine() }),
        /grimoire\.db is a SQLite database file, which sql\.js cannot share/,
      );
      file.write(event('after'));
      const again = await Store.open({ dataDir, engine: native });
      assert.equal(
        again.query<{ n: number }>("SELECT count(*) AS n FROM events WHERE kind <> 'filler'")[0]!.n,
        5,
        'imported once, not again',
      );
      await again.close();
    },
  );
}

test(
  'a native process on a data dir a live sql.js store holds is refused, naming it, ' +
    'and changes nothing; once it is closed the first native open imports it',
  async (t) => {
    const native = await nativeEngineOrReason();
    if (typeof native === 'string') return t.skip(native);
    const { dir: dataDir, cleanup } = tempDir('grimoire-engines-');
    t.after(cleanup);
    const sqljs = await Store.open({ dataDir, engine: await sqlJsEngine() });
    assert.ok(sqljs instanceof SqljsStore);
    sqljs.write(event('from-sql.js'));
    const before = fs.readdirSync(dataDir).sort();
    await assert.rejects(
      Store.open({ dataDir, engine: native }),
      new RegExp(`store: process ${process.pid} has this data folder open on sql\\.js`),
    );
    assert.deepEqual(fs.readdirSync(dataDir).sort(), before, 'no grimoire.db, nothing moved');
    sqljs.write(event('after-the-refusal'));
    await sqljs.close();
    const file = await Store.open({ dataDir, engine: native });
    t.after(() => file.close());
    assert.ok(file instanceof SqliteStore);
    assert.deepEqual(
      file.query<{ id: string }>('SELECT id FROM events ORDER BY id').map((row) => row.id),
      ['after-the-refusal', 'from-sql.js'],
    );
  },
);

test(
  'every engine gives the same surface: rows as plain objects, the first statement of a text prepared, ' +
    'exec running them all, a statement kept and run again',
  async (t) => {
    const others = [await nativeEngineOrReason(), await nodeSqliteEngineOrReason()].filter(
      (engine) => typeof engine !== 'string',
    );
    if (others.length === 0) return t.skip('neither better-sqlite3 nor node:sqlite loads in this process');
    for (const engine of [...others, await sqlJsEngine()] as SqlEngine[]) {
      const db = engine.open();
      db.exec("CREATE TABLE t (a, b); INSERT INTO t VALUES (1, 'x;y'), (2, NULL)");
      const statement = db.prepare('SELECT a, b FROM t WHERE a >= ? ORDER BY a');
      assert.deepEqual(
        statement.all([1]),
        [
          { a: 1, b: 'x;y' },
          { a: 2, b: null },
        ],
        engine.name,
      );
      assert.deepEqual(statement.all([2]), [{ a: 2, b: null }], `${engine.name}: run again with other parameters`);
      assert.equal(Object.getPrototypeOf(statement.all([2])[0]), Object.prototype, `${engine.name}: a plain object`);
      statement.free();
      runOnce(db, 'INSERT INTO t VALUES (?, ?)', [3, 'z']);
      assert.deepEqual(rowsOf(db, 'SELECT count(*) AS n FROM t'), [{ n: 3 }], engine.name);
      try {
        rowsOf(db, 'SELECT 1 AS one; DELETE FROM t');
      } catch {
        // better-sqlite3 refuses a text of several statements; the others compile the first alone
      }
      assert.deepEqual(
        rowsOf(db, 'SELECT count(*) AS n FROM t'),
        [{ n: 3 }],
        `${engine.name}: the second statement did not run`,
      );
      db.close();
    }
  },
);

const STORE_TEST_FILES = [
  'sqljs-store.test.js',
  'sqlite-store.test.js',
  'store-apply-ops.test.js',
  'store-database-export.test.js',
  'activity-record.test.js',
  'activity-retention.test.js',
  'activity-table.test.js',
];

/** Runs the store and activity test files again in a child on `node` with the engine forced; asserts they pass. */
function rerunStoreTests(node: string, engine: string, extraFiles: string[] = []): void {
  const files = [...STORE_TEST_FILES, ...extraFiles].map((file) => path.join(__dirname, file));
  // Without NODE_TEST_CONTEXT, which would make the inner runner report to this one instead of printing.
  const { NODE_TEST_CONTEXT: _context, ...env } = process.env;
  const run = spawnSync(node, ['--test', ...files], {
    env: { ...env, [ENGINE_VARIABLE]: engine },
    encoding: 'utf8',
    timeout: 110_000,
  });
  assert.equal(run.status, 0, run.stdout.slice(-3_000));
  assert.match(run.stdout, /# fail 0/);
  assert.doesNotMatch(run.stdout, /# pass 0\b/);
}

test(
  'the store and activity tests pass on sql.js too (the fallback where neither better-sqlite3 nor node:sqlite loads)',
  { timeout: 120_000 },
  (t) => {
    if (process.env[ENGINE_VARIABLE]) return t.skip(`this run is the ${process.env[ENGINE_VARIABLE]} one`);
    rerunStoreTests(process.execPath, 'sql.js');
  },
);

test(
  'the store and activity tests, and these, pass on node:sqlite (the engine where better-sqlite3 does not load and Node has it)',
  { timeout: 120_000 },
  (t) => {
    if (process.env[ENGINE_VARIABLE]) return t.skip(`this run is the ${process.env[ENGINE_VARIABLE]} one`);
    const found = nodeWithSqlite();
    if ('reason' in found) return t.skip(found.reason);
    rerunStoreTests(found.node, 'node:sqlite', ['store-engines.test.js']);
  },
);

test(
  `the store and activity tests pass on node:sqlite of Node ${VSCODE_OLDEST_NODE}, ` +
    `the Node of VS Code 1.101 (no setReturnArrays, no columns())`,
  { timeout: 120_000 },
  (t) => {
    if (process.env[ENGINE_VARIABLE]) return t.skip(`this run is the ${process.env[ENGINE_VARIABLE]} one`);
    if (!fs.existsSync(oldestNode)) return t.skip(`${oldestNode} is not installed (.ci/run installs it)`);
    rerunStoreTests(oldestNode, 'node:sqlite');
  },
);

test(
  'where better-sqlite3 does not load, Node 22 runs the store on node:sqlite, quietly, ' +
    'on the same database file better-sqlite3 opens, both ways',
  async (t) => {
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
          `(async () => { const s = await require(${storeJs}).Store.open({ dataDir: ` +
            `${JSON.stringify(dataDir)} }); for (const id of ${JSON.stringify(ids)}) s.write({ op: ` +
            `'insert', table: 'events', row: { id, at: 1, kind: 'test', detail: id } }); s.write({ op: ` +
            `'insert', table: 'events', row: { id: ${JSON.stringify(`${ids[0]}-journal`)}, at: 1, kind: ` +
            `'test', detail: '' } }); process.stdout.write((await require(${engineJs}).loadSqlEngine()).name + ' ` +
            `' + s.query('SELECT id FROM events ORDER BY id').map((r) => r.id).join(',')); await s.close(); })()`,
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
      assert.deepEqual(
        store.query<{ id: string }>('SELECT id FROM events ORDER BY id').map((row) => row.id),
        expected,
        'node:sqlite -> better-sqlite3',
      );
      store.write(event('better-sqlite3-row'));
      await store.close();
    }
    const back = child(['b1'], 'debug');
    assert.match(back.stdout, /^node:sqlite a1,a1-journal,a2,b1,b1-journal/, back.stderr);
    if (typeof native !== 'string') assert.match(back.stdout, /better-sqlite3-row/);
    assert.doesNotMatch(back.stderr, /ExperimentalWarning/);
  },
);

test('without better-sqlite3 and node:sqlite the store runs on sql.js, and says so at debug level only', () => {
  // A preload that makes both unloadable, as in the .vsix (which does not carry better-sqlite3) on an Electron before node:sqlite.
  const hide =
    "const M = require('node:module'); const load = M._load; " +
    "M._load = function (request, ...rest) { if (request === 'better-sqlite3' || request === " +
    "'node:sqlite') throw Object.assign(new Error(`Cannot find module '${request}'`), { code: " +
    "'MODULE_NOT_FOUND' }); return load.call(this, request, ...rest); };";
  const dataDir = tempDir('grimoire-engines-');
  try {
    const storeJs = JSON.stringify(path.resolve(__dirname, '../../server/store/store.js'));
    const engineJs = JSON.stringify(path.resolve(__dirname, '../../server/store/sql-engine.js'));
    const script =
      `${hide} (async () => { const s = await require(${storeJs}).Store.open({ dataDir: ` +
      `${JSON.stringify(dataDir.dir)} }); s.write({ op: 'insert', table: 'events', row: { id: 'e1', at: ` +
      `1, kind: 'k', detail: 'd' } }); process.stdout.write((await ` +
      `require(${engineJs}).loadSqlEngine()).name + ' ' + s.query('SELECT count(*) AS n FROM ` +
      `events')[0].n); await s.close(); })()`;
    const run = (level: string) =>
      spawnSync(process.execPath, ['-e', script], {
        env: { PATH: process.env.PATH ?? '', GRIMOIRE_LOG: level },
        encoding: 'utf8',
      });
    const quiet = run('info');
    assert.equal(quiet.stdout, 'sql.js 1', quiet.stderr);
    assert.equal(quiet.stderr, '');
    const told = run('debug');
    assert.equal(told.stdout, 'sql.js 1', told.stderr);
    assert.match(
      told.stderr,
      new RegExp(
        /store on sql\.js: better-sqlite3 did not load \(Cannot find module 'better-sqlite3'\) nor /.source +
          /node:sqlite \(Cannot find module 'node:sqlite'\)/.source,
      ),
    );
  } finally {
    dataDir.cleanup();
  }
});
