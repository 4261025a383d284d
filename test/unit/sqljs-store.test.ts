/**
 * The sql.js store (sqljs-store.ts): what the `Store` contract promises, over a snapshot and one
 * journal, and the data dir's lock that keeps it to one process at a time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setLogSink } from '../../server/log.js';
import { latestVersion, migrate, MIGRATIONS, schemaVersion, TABLE_KEYS } from '../../server/store/migrations.js';
import { SqljsStore, type Store, type WriteOp } from '../../server/store/store.js';
import { loadSqlEngine, sqlJsEngine } from '../../server/store/sql-engine.js';
import { runOnce } from '../../server/store/sql-surface.js';
import { lockDataDir } from '../../server/store/data-dir-lock.js';

type Ctx = { after(fn: () => void): void };

const cleanups = new WeakMap<Ctx, { stores: SqljsStore[]; dirs: string[] }>();

/** Per test: stores opened with open() are closed first, then temp dirs are removed. */
function cleanup(t: Ctx): { stores: SqljsStore[]; dirs: string[] } {
  let entry = cleanups.get(t);
  if (!entry) {
    const created = { stores: [] as SqljsStore[], dirs: [] as string[] };
    t.after(() => {
      for (const store of created.stores) store.close();
      for (const dir of created.dirs) fs.rmSync(dir, { recursive: true, force: true });
    });
    cleanups.set(t, created);
    entry = created;
  }
  return entry;
}

function tempDir(t: Ctx): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grimoire-store-'));
  cleanup(t).dirs.push(dir);
  return dir;
}

async function open(t: Ctx, dataDir: string, compactBytes?: number): Promise<SqljsStore> {
  const store = await SqljsStore.open({ dataDir, fsync: false, compactBytes });
  cleanup(t).stores.push(store);
  return store;
}

/** Captures log lines for the test's duration. */
function captureLog(t: Ctx): string[] {
  const lines: string[] = [];
  setLogSink((line) => lines.push(line));
  t.after(() => setLogSink((line) => process.stderr.write(line + '\n')));
  return lines;
}

const event = (id: string, detail: string | null = null): WriteOp => ({
  op: 'insert',
  table: 'events',
  row: { id, at: 1, kind: 'test', power: 'p', detail },
});
const count = (store: Store, table = 'events') =>
  store.query<{ n: number }>(`SELECT count(*) AS n FROM ${table}`)[0]!.n;
const ids = (store: Store) => store.query<{ id: string }>('SELECT id FROM events ORDER BY id').map((row) => row.id);
const journalDir = (dataDir: string) => path.join(dataDir, 'journals');
/** The journal files. */
const journals = (dataDir: string) =>
  fs
    .readdirSync(journalDir(dataDir))
    .filter((name) => name.endsWith('.jsonl'))
    .sort();
const journalFile = (dataDir: string, n = 1) => path.join(journalDir(dataDir), `journal-${n}.jsonl`);
const deadPid = (): number => spawnSync(process.execPath, ['-e', '']).pid!;
const line = (journal: string, seq: number, ops: WriteOp[], ts = Date.now()) =>
  JSON.stringify({ id: `${journal.replace(/\.jsonl$/, '')}:${seq}`, ts, ops }) + '\n';

test('migrations are applied once, in order, and the version is recorded', async (t) => {
  const db = (await loadSqlEngine()).open();
  t.after(() => db.close());
  assert.equal(schemaVersion(db), 0);
  assert.deepEqual(
    migrate(db),
    MIGRATIONS.map((m) => m.version),
  );
  assert.equal(schemaVersion(db), latestVersion());
  assert.deepEqual(migrate(db), [], 'nothing pending the second time');
  // A later version applies alone; its CREATE TABLE would throw if it ran twice.
  const nextVersion = latestVersion() + 1;
  const next = [...MIGRATIONS, { version: nextVersion, sql: 'CREATE TABLE extra (x TEXT)' }];
  assert.deepEqual(migrate(db, next), [nextVersion]);
  assert.deepEqual(migrate(db, next), []);
  assert.equal(schemaVersion(db), nextVersion);

  const dataDir = tempDir(t);
  const store = await SqljsStore.open({ dataDir, fsync: false });
  const version = () => store.query<{ value: string }>("SELECT value FROM meta WHERE key = 'schema_version'");
  assert.deepEqual(version(), [{ value: String(latestVersion()) }]);
  // Every table of the key map exists and its primary key is the declared key.
  for (const [table, keys] of Object.entries(TABLE_KEYS)) {
    const pk = store
      .query<{ name: string; pk: number }>(`PRAGMA table_info(${table})`)
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => c.name);
    assert.deepEqual(pk, keys, table);
  }
  store.close();
  const reopened = await open(t, dataDir);
  assert.deepEqual(reopened.query<{ value: string }>("SELECT value FROM meta WHERE key = 'schema_version'"), [
    { value: String(latestVersion()) },
  ]);
});

test('write and query: upsert merges columns, insert ignores an existing key, delete by where', async (t) => {
  const store = await open(t, tempDir(t));
  store.write({
    op: 'upsert',
    table: 'catalog_powers',
    row: { power: 'fs', tools_hash: 'h1', tool_count: 3, refreshed_at: 10 },
  });
  store.write({ op: 'upsert', table: 'catalog_powers', row: { power: 'fs', tool_count: 4 } });
  assert.deepEqual(store.query('SELECT power, tools_hash, tool_count, refreshed_at FROM catalog_powers'), [
    { power: 'fs', tools_hash: 'h1', tool_count: 4, refreshed_at: 10 },
  ]);

  store.write(event('e1', 'first'));
  store.write(event('e1', 'second'));
  assert.deepEqual(store.query('SELECT detail FROM events WHERE id = ?', ['e1']), [{ detail: 'first' }]);

  store.writeMany([
    { op: 'upsert', table: 'catalog_tools', row: { power: 'fs', tool: 'read', hash: 'a' } },
    { op: 'upsert', table: 'catalog_tools', row: { power: 'fs', tool: 'write', hash: 'b' } },
    { op: 'upsert', table: 'catalog_tools', row: { power: 'git', tool: 'log', hash: 'c' } },
  ]);
  store.write({ op: 'delete', table: 'catalog_tools', where: { power: 'fs' } });
  assert.deepEqual(store.query('SELECT power, tool FROM catalog_tools'), [{ power: 'git', tool: 'log' }]);
  assert.throws(() => store.query('DELETE FROM events'), /read-only/);
  for (const sql of [
    'PRAGMA query_only = OFF',
    'pragma query_only(0)',
    '/* x */ BEGIN',
    'COMMIT',
    'SAVEPOINT s',
    "ATTACH ':memory:' AS other",
  ]) {
    assert.throws(() => store.query(sql), /read-only/, sql);
  }
  assert.throws(() => store.query('DELETE FROM events'), /read-only/, 'still read-only after the attempts');
  assert.ok(store.query('PRAGMA table_info(events)').length > 0, 'a pragma that reads is fine');
  assert.equal(count(store), 1, 'a write through query() is rolled back');
});

test('query() runs what compiles to a read-only program (ephemeral tables included) and refuses the rest before it runs', async (t) => {
  const store = await open(t, tempDir(t));
  store.writeMany([event('e1', 'one'), event('e2', 'two'), event('e3', 'two')]);
  assert.deepEqual(
    store.query('SELECT DISTINCT detail FROM events ORDER BY detail'),
    [{ detail: 'one' }, { detail: 'two' }],
    'DISTINCT and a sorter fill ephemeral tables',
  );
  assert.equal(
    store.query("SELECT id FROM events WHERE id IN (SELECT id FROM events WHERE detail = 'two')").length,
    2,
    'an IN subquery fills an ephemeral index',
  );
  for (const sql of [
    'WITH x AS (SELECT 1) DELETE FROM events',
    "UPDATE events SET detail = 'x'",
    'CREATE TEMP TABLE z (a)',
    'DROP TABLE events',
    "INSERT INTO events (id) VALUES ('e9')",
  ]) {
    assert.throws(() => store.query(sql), /read-only/, sql);
    assert.throws(() => store.query(sql), /read-only/, `${sql}, asked again (the verdict is cached)`);
  }
  assert.deepEqual(
    store.query('SELECT COUNT(*) AS n FROM events; DELETE FROM events'),
    [{ n: 3 }],
    'only the first statement runs',
  );
  assert.equal(count(store), 3, 'nothing was written through query()');
  assert.throws(() => store.query('SELEC nonsense'), /syntax error/, "SQL that does not compile gets SQLite's message");
  store.write(event('e4', 'four'));
  assert.deepEqual(
    store.query('SELECT DISTINCT detail FROM events ORDER BY detail'),
    [{ detail: 'four' }, { detail: 'one' }, { detail: 'two' }],
    'a cached statement sees the write after it',
  );
});

test("tableVersion moves with this store's writes to that table only", async (t) => {
  const a = await open(t, tempDir(t));
  const events = a.tableVersion('events');
  const catalog = a.tableVersion('catalog_tools');
  assert.equal(a.tableVersion('events'), events, 'unchanged when nothing was written');
  a.write(event('e1'));
  assert.notEqual(a.tableVersion('events'), events, 'own write');
  assert.equal(a.tableVersion('catalog_tools'), catalog, 'a write to another table');
});

test(
  'one store at a time on a data dir: a second open is refused, naming the holder and what to do, ' +
    'and changes nothing; after close the next one has every write',
  async (t) => {
    const dataDir = tempDir(t);
    const a = await open(t, dataDir);
    a.write(event('e1'));
    a.write({ op: 'upsert', table: 'events', row: { id: 'e1', detail: 'changed' } });
    const lock = fs.readFileSync(path.join(dataDir, 'journal.lock'), 'utf8');
    const journal = fs.readFileSync(journalFile(dataDir));
    await assert.rejects(
      SqljsStore.open({ dataDir, fsync: false }),
      new RegExp(
        `^Error: store: process ${process.pid} has this data folder open on sql\\.js .*which one process at ` +
          `a time can use; close it .*or run Grimoire on Node 22\\.13\\+ or with better-sqlite3$`,
      ),
    );
    assert.equal(fs.readFileSync(path.join(dataDir, 'journal.lock'), 'utf8'), lock, 'the holder keeps its lock');
    assert.deepEqual(fs.readFileSync(journalFile(dataDir)), journal, 'the journal is untouched');
    a.write(event('e2'));
    a.close();
    assert.equal(fs.existsSync(path.join(dataDir, 'journal.lock')), false, 'close releases the lock');
    const b = await open(t, dataDir);
    assert.deepEqual(b.query('SELECT id, detail FROM events ORDER BY id'), [
      { id: 'e1', detail: 'changed' },
      { id: 'e2', detail: null },
    ]);
    const stamps = fs
      .readFileSync(journalFile(dataDir), 'utf8')
      .trim()
      .split('\n')
      .map((text) => (JSON.parse(text) as { ts: number }).ts);
    assert.equal(stamps.length, 3);
    assert.deepEqual(
      stamps,
      [...stamps].sort((x, y) => x - y),
      'stamps never go back in the file',
    );
  },
);

test('deleteBefore: one op deletes the rows before a row value, in (column, column) order; a replay agrees', async (t) => {
  const dataDir = tempDir(t);
  const a = await open(t, dataDir);
  const at = (id: string, time: number): WriteOp => ({
    op: 'insert',
    table: 'events',
    row: { id, at: time, kind: 'test', power: 'p', detail: null },
  });
  a.writeMany([at('b', 1), at('a', 2), at('c', 2), at('d', 2), at('e', 3)]);
  assert.throws(() => a.write({ op: 'deleteBefore', table: 'events', before: { at: null } }), /needs a value for "at"/);
  assert.throws(
    () => a.write({ op: 'deleteBefore', table: 'events', before: { colour: 1 } }),
    /unknown column "colour"/,
  );
  a.write({ op: 'deleteBefore', table: 'events', before: { at: 2, id: 'c' } });
  assert.deepEqual(ids(a), ['c', 'd', 'e'], 'b (an earlier time) and a (the same time, an earlier id) go');
  a.write(at('a', 2));
  a.write({ op: 'deleteBefore', table: 'events', before: { at: 1 } });
  assert.deepEqual(ids(a), ['a', 'c', 'd', 'e'], 'a later insert before the cut stays: ops apply in order');
  const lines = fs.readFileSync(journalFile(dataDir), 'utf8').trim().split('\n');
  assert.equal(
    lines.filter((text) => text.includes('"deleteBefore"')).length,
    2,
    'each range is one op on one journal line',
  );
  a.close();
  assert.deepEqual(ids(await open(t, dataDir)), ['a', 'c', 'd', 'e'], 'a reopen from the journal agrees');
});

test(
  'a journal op that fails validation is skipped with a warning at load; the rest of its line applies; ' +
    'invalid lines are skipped',
  async (t) => {
    const logs = captureLog(t);
    const dataDir = tempDir(t);
    const store = await open(t, dataDir);
    store.write(event('kept'));
    store.close();
    const ops = [
      { op: 'deleteBefore', table: 'events', before: { at: null } },
      { op: 'deleteBefore', table: 'events', before: {} },
      event('added'),
    ] as WriteOp[];
    fs.appendFileSync(journalFile(dataDir), '{"id": garbage\n' + line('journal-1', 99_999, ops));
    assert.deepEqual(ids(await open(t, dataDir)), ['added', 'kept']);
    assert.equal(logs.filter((l) => l.includes('skipping op')).length, 2, logs.join('\n'));
    assert.ok(
      logs.some((l) => l.includes('invalid journal line')),
      logs.join('\n'),
    );
  },
);

test('a torn last line (a writer killed mid-write) is cut off at open, with a warning; the journal goes on from there', async (t) => {
  const logs = captureLog(t);
  const dataDir = tempDir(t);
  const writer = await open(t, dataDir);
  writer.write(event('before'));
  writer.close();
  fs.appendFileSync(journalFile(dataDir), line('journal-1', 2, [event('killed')]).slice(0, 30));
  const store = await open(t, dataDir);
  assert.ok(
    logs.some((l) => l.includes('cutting off a torn last line')),
    logs.join('\n'),
  );
  store.write(event('after'));
  assert.deepEqual(ids(store), ['after', 'before']);
  assert.equal(
    fs
      .readFileSync(journalFile(dataDir), 'utf8')
      .split('\n')
      .filter((text) => text !== '')
      .every((text) => JSON.parse(text) !== undefined),
    true,
    'every line in the file is whole',
  );
  store.close();
  assert.deepEqual(ids(await open(t, dataDir)), ['after', 'before'], 'a new store loads the same');
});

test('unknown table or column throws, naming it, before anything is appended', async (t) => {
  const dataDir = tempDir(t);
  const store = await open(t, dataDir);
  const size = () => fs.statSync(journalFile(dataDir)).size;
  store.write(event('ok'));
  const before = size();
  assert.throws(() => store.write({ op: 'upsert', table: 'nope', row: { id: 'x' } }), /unknown table "nope"/);
  assert.throws(
    () => store.write({ op: 'insert', table: 'events', row: { id: 'x', colour: 'red' } }),
    /unknown column "colour"/,
  );
  assert.throws(() => store.write({ op: 'delete', table: 'events', where: { nope: 1 } }), /unknown column "nope"/);
  assert.throws(() => store.write({ op: 'upsert', table: 'catalog_tools', row: { power: 'p' } }), /key column "tool"/);
  assert.throws(
    () => store.writeMany([event('good'), { op: 'insert', table: 'events', row: { id: 'y', bad: 1 } }]),
    /"bad"/,
  );
  assert.equal(size(), before, 'the journal did not grow');
  assert.deepEqual(store.query('SELECT id FROM events'), [{ id: 'ok' }]);
});

test('a corrupt snapshot is moved aside with a warning; the journal after it still loads', async (t) => {
  const logs = captureLog(t);
  const dataDir = tempDir(t);
  const writer = await open(t, dataDir, 2_000);
  for (let i = 0; !fs.existsSync(journalFile(dataDir, 2)); i++) writer.write(event(`c${i}`, 'x'.repeat(100)));
  writer.write(event('after-snapshot'));
  writer.close();
  fs.writeFileSync(path.join(dataDir, 'grimoire.sqlite'), 'this is not an sqlite database, '.repeat(50));
  const store = await open(t, dataDir);
  assert.deepEqual(ids(store), ['after-snapshot']);
  assert.equal(fs.readdirSync(dataDir).filter((n) => n.startsWith('grimoire.sqlite.corrupt-')).length, 1);
  assert.ok(
    logs.some((l) => l.includes('warn') && l.includes('[store]') && l.includes('unreadable')),
    logs.join('\n'),
  );
});

test(
  "past compactBytes (and the snapshot's size) the store rewrites the snapshot and starts the next " +
    'journal; nothing is lost',
  async (t) => {
    const dataDir = tempDir(t);
    const writer = await open(t, dataDir, 4_000);
    let n = 0;
    while (!fs.existsSync(journalFile(dataDir, 2))) writer.write(event(`e${n++}`, 'x'.repeat(100)));
    const first = fs.statSync(path.join(dataDir, 'grimoire.sqlite')).size;
    assert.deepEqual(journals(dataDir), ['journal-2.jsonl'], 'the folded journal is deleted');
    assert.equal(fs.statSync(journalFile(dataDir, 2)).size, 0);
    // A line is 200-300 bytes here: the compaction came once the journal passed 4,000 bytes, not before.
    const lineBytes = Buffer.byteLength(line('journal-1', 1_000, [event('e00', 'x'.repeat(100))]));
    assert.ok(lineBytes > 200 && lineBytes < 300, `${lineBytes}`);
    assert.ok(n * (lineBytes + 10) >= 4_000 && (n - 1) * (lineBytes - 10) < 4_000, `compacted after ${n} writes`);
    assert.equal(count(writer), n);
    // The next compaction waits for journal bytes of the snapshot's size (here more than compactBytes).
    let later = 0;
    while (!fs.existsSync(journalFile(dataDir, 3))) writer.write(event(`f${later++}`, 'x'.repeat(100)));
    assert.ok(
      first > 4_000 && later * (lineBytes + 10) >= first && (later - 1) * (lineBytes - 10) < first,
      `${later} writes against a ${first}-byte snapshot`,
    );
    writer.write(event('in-journal-3'));
    const marks = writer.query<{ journal: string; offset: number }>(
      'SELECT journal, offset FROM journal_watermarks ORDER BY journal',
    );
    assert.deepEqual(
      marks.map((m) => m.journal),
      ['journal-2.jsonl', 'journal-3.jsonl'],
    );
    writer.close();
    // A journal of an older generation that a compaction left (stopped before deleting it) is in the snapshot already.
    fs.writeFileSync(
      journalFile(dataDir, 1),
      line('journal-1', 0, [{ op: 'upsert', table: 'events', row: { id: 'e0', detail: 'replayed?' } }]),
    );
    const reopened = await open(t, dataDir);
    assert.equal(count(reopened), n + later + 1, 'a new store opens every row');
    assert.deepEqual(
      reopened.query("SELECT detail FROM events WHERE id = 'e0'"),
      [{ detail: 'x'.repeat(100) }],
      'the older generation is not replayed',
    );
  },
);

test('group commit: writes are in the journal file at once, synced in batches; durable() waits for the sync', async (t) => {
  const dataDir = tempDir(t);
  const store = await SqljsStore.open({ dataDir });
  cleanup(t).stores.push(store);
  for (let i = 0; i < 100; i++) store.write(event(`g${i}`));
  assert.equal(
    fs.readFileSync(journalFile(dataDir), 'utf8').trimEnd().split('\n').length,
    100,
    'every write is in the journal file before durable()',
  );
  await store.durable();
  const syncs = store.syncs;
  assert.ok(syncs >= 1 && syncs < 100, `100 writes took ${syncs} fdatasync calls`);
  await store.durable();
  assert.equal(store.syncs, syncs, 'nothing new to sync: durable() resolves without a sync');
});

test(
  "the data dir's lock: a live sql.js holder is refused at once, a live import waited for, then named; " +
    "a dead holder's, an earlier process's with this pid, or an unreadable old one is broken",
  async (t) => {
    const logs = captureLog(t);
    const dir = tempDir(t);
    const lock = path.join(dir, 'journal.lock');
    const holder = (pid: number, sqljs: boolean) =>
      JSON.stringify({ pid, ts: Date.now(), token: 'someone-else', ...(sqljs ? { sqljs } : {}) });
    const other = process.ppid;
    fs.writeFileSync(lock, holder(other, true));
    let started = Date.now();
    assert.throws(() => lockDataDir(dir, true), new RegExp(`process ${other} has this data folder open on sql\\.js`));
    assert.throws(
      () => lockDataDir(dir, false),
      new RegExp(`process ${other} has this data folder open on sql\\.js`),
      'an import too',
    );
    assert.ok(Date.now() - started < 1_000, 'at once');
    assert.ok(fs.readFileSync(lock, 'utf8').includes('someone-else'), 'left in place');

    fs.writeFileSync(lock, holder(other, false));
    started = Date.now();
    assert.throws(
      () => lockDataDir(dir, false, 200),
      new RegExp(
        `journal\\.lock names process ${other}, which has held it for 0.2 s; .*delete that file: rm ".*journal\\.lock"`,
      ),
    );
    assert.ok(Date.now() - started >= 190, 'it waited for the import');

    for (const gone of [deadPid(), process.pid]) {
      fs.writeFileSync(lock, holder(gone, true));
      const release = lockDataDir(dir, true);
      assert.equal((JSON.parse(fs.readFileSync(lock, 'utf8')) as { pid: number; sqljs: boolean }).sqljs, true);
      release();
      assert.equal(fs.existsSync(lock), false, 'released');
    }
    fs.writeFileSync(lock, '');
    const old = (Date.now() - 60_000) / 1000;
    fs.utimesSync(lock, old, old);
    lockDataDir(dir, false)();
    assert.equal(logs.filter((l) => l.includes('broke the lock of a process that is gone')).length, 3, logs.join('\n'));
  },
);

test('close is idempotent and the store refuses use afterwards', async (t) => {
  const dataDir = tempDir(t);
  const store = await SqljsStore.open({ dataDir, fsync: false });
  store.write(event('e'));
  store.close();
  store.close();
  assert.throws(() => store.write(event('f')), /closed/);
  assert.throws(() => store.query('SELECT 1'), /closed/);
  const reopened = await open(t, dataDir);
  assert.equal(count(reopened), 1);
});

test(
  "an earlier release's per-process journals (owners gone) are imported on open without losing a " +
    'record: folded into the snapshot, whole unterminated lines too',
  async (t) => {
    const logs = captureLog(t);
    const dataDir = tempDir(t);
    // The earlier format: a snapshot whose watermarks say how much of each journal it holds, and journals per process.
    const pid = deadPid();
    const a = `${pid}-aaaa.jsonl`;
    const b = `${pid}-bbbb.jsonl`;
    const db = (await sqlJsEngine()).open();
    migrate(db);
    runOnce(db, "INSERT INTO events (id, at, kind, detail) VALUES ('in-snapshot', 1, 'test', 'old')");
    const aLines = line(a, 1, [event('folded-already')], 1) + line(a, 2, [event('a2')], 3);
    runOnce(db, 'INSERT INTO journal_watermarks (journal, offset) VALUES (?, ?)', [
      a,
      Buffer.byteLength(line(a, 1, [event('folded-already')], 1)),
    ]);
    fs.writeFileSync(path.join(dataDir, 'grimoire.sqlite'), db.export());
    db.close();
    fs.mkdirSync(journalDir(dataDir));
    fs.writeFileSync(path.join(journalDir(dataDir), a), aLines);
    const update: WriteOp = {
      op: 'upsert',
      table: 'events',
      row: { id: 'in-snapshot', at: 1, kind: 'test', detail: 'updated by b, after a2' },
    };
    fs.writeFileSync(
      path.join(journalDir(dataDir), b),
      line(b, 1, [event('b1')], 2) + line(b, 2, [update], 4).trimEnd(),
    );
    const store = await open(t, dataDir);
    assert.deepEqual(ids(store), ['a2', 'b1', 'in-snapshot'], "'folded-already' is past no watermark: not replayed");
    assert.deepEqual(
      store.query("SELECT detail FROM events WHERE id = 'in-snapshot'"),
      [{ detail: 'updated by b, after a2' }],
      "a dead writer's whole last line is applied",
    );
    assert.deepEqual(
      journals(dataDir),
      ['journal-2.jsonl'],
      'the old journals are folded into the snapshot and deleted',
    );
    assert.ok(
      logs.some((l) => l.includes('imported 2 journal(s)')),
      logs.join('\n'),
    );
    store.close();
    assert.deepEqual(ids(await open(t, dataDir)), ['a2', 'b1', 'in-snapshot'], 'the snapshot alone holds them');
  },
);

test('a live earlier-release writer, or a database file, makes the sql.js store refuse the data dir, saying why', async (t) => {
  const dataDir = tempDir(t);
  fs.mkdirSync(journalDir(dataDir));
  const live = `${process.ppid}-cafe.jsonl`;
  fs.writeFileSync(path.join(journalDir(dataDir), live), '');
  await assert.rejects(
    SqljsStore.open({ dataDir }),
    new RegExp(`process ${process.ppid} \\(an earlier Grimoire\\) still writes`),
  );
  fs.rmSync(path.join(journalDir(dataDir), live));
  fs.writeFileSync(path.join(dataDir, 'grimoire.db'), '');
  await assert.rejects(
    SqljsStore.open({ dataDir }),
    /grimoire\.db is a SQLite database file, which sql\.js cannot share/,
  );
  assert.equal(fs.existsSync(path.join(dataDir, 'journal.lock')), false, 'a refused open leaves no lock');
  assert.deepEqual(journals(dataDir), [], 'nor a journal');
});
