import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setLogSink } from '../../server/log.js';
import { latestVersion, migrate, MIGRATIONS, schemaVersion, TABLE_KEYS } from '../../server/store/migrations.js';
import { CHANGES_FILE } from '../../server/store/journaled/change-counter.js';
import { JournaledStore, type Store, type WriteOp } from '../../server/store/store.js';
import { loadSqlEngine } from '../../server/store/sql-engine.js';

type Ctx = { after(fn: () => void): void };

const cleanups = new WeakMap<Ctx, { stores: JournaledStore[]; dirs: string[] }>();

/** Per test: Stores opened with open() are closed first, then temp dirs are removed. */
function cleanup(t: Ctx): { stores: JournaledStore[]; dirs: string[] } {
  let entry = cleanups.get(t);
  if (!entry) {
    const created = { stores: [] as JournaledStore[], dirs: [] as string[] };
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

async function open(t: Ctx, dataDir: string, compactEvery?: number): Promise<JournaledStore> {
  const store = await JournaledStore.open({ dataDir, fsync: false, compactEvery });
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
const count = (store: Store, table = 'events') => store.query<{ n: number }>(`SELECT count(*) AS n FROM ${table}`)[0]!.n;
const journalDir = (dataDir: string) => path.join(dataDir, 'journals');
const journals = (dataDir: string) => fs.readdirSync(journalDir(dataDir)).sort();
/** What a Store does after it appends: moves the data dir's change counter. */
const announce = (dataDir: string) => fs.appendFileSync(path.join(dataDir, CHANGES_FILE), '.');
/** Waits (at most 5 s) until the condition holds. */
const until = async (condition: () => boolean): Promise<void> => {
  const deadline = Date.now() + 5_000;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
};
const deadPid = (): number => spawnSync(process.execPath, ['-e', '']).pid!;
const line = (journal: string, seq: number, ops: WriteOp[]) =>
  JSON.stringify({ id: `${journal.replace(/\.jsonl$/, '')}:${seq}`, ts: Date.now(), ops }) + '\n';

test('migrations are applied once, in order, and the version is recorded', async (t) => {
  const db = (await loadSqlEngine()).open();
  t.after(() => db.close());
  assert.equal(schemaVersion(db), 0);
  assert.deepEqual(migrate(db), MIGRATIONS.map((m) => m.version));
  assert.equal(schemaVersion(db), latestVersion());
  assert.deepEqual(migrate(db), [], 'nothing pending the second time');
  // A later version applies alone; its CREATE TABLE would throw if it ran twice.
  const nextVersion = latestVersion() + 1;
  const next = [...MIGRATIONS, { version: nextVersion, sql: 'CREATE TABLE extra (x TEXT)' }];
  assert.deepEqual(migrate(db, next), [nextVersion]);
  assert.deepEqual(migrate(db, next), []);
  assert.equal(schemaVersion(db), nextVersion);

  const dataDir = tempDir(t);
  const store = await JournaledStore.open({ dataDir, fsync: false });
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
  store.write({ op: 'upsert', table: 'catalog_powers', row: { power: 'fs', tools_hash: 'h1', tool_count: 3, refreshed_at: 10 } });
  store.write({ op: 'upsert', table: 'catalog_powers', row: { power: 'fs', tool_count: 4 } });
  assert.deepEqual(store.query('SELECT power, tools_hash, tool_count, refreshed_at FROM catalog_powers'), [{ power: 'fs', tools_hash: 'h1', tool_count: 4, refreshed_at: 10 }]);

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
  for (const sql of ['PRAGMA query_only = OFF', 'pragma query_only(0)', '/* x */ BEGIN', 'COMMIT', 'SAVEPOINT s', "ATTACH ':memory:' AS other"]) {
    assert.throws(() => store.query(sql), /read-only/, sql);
  }
  assert.throws(() => store.query('DELETE FROM events'), /read-only/, 'still read-only after the attempts');
  assert.ok(store.query('PRAGMA table_info(events)').length > 0, 'a pragma that reads is fine');
  assert.equal(count(store), 1, 'a write through query() is rolled back');
});

test('query() runs what compiles to a read-only program (ephemeral tables included) and refuses the rest before it runs', async (t) => {
  const store = await open(t, tempDir(t));
  store.writeMany([event('e1', 'one'), event('e2', 'two'), event('e3', 'two')]);
  assert.deepEqual(store.query('SELECT DISTINCT detail FROM events ORDER BY detail'), [{ detail: 'one' }, { detail: 'two' }], 'DISTINCT and a sorter fill ephemeral tables');
  assert.equal(store.query("SELECT id FROM events WHERE id IN (SELECT id FROM events WHERE detail = 'two')").length, 2, 'an IN subquery fills an ephemeral index');
  for (const sql of ['WITH x AS (SELECT 1) DELETE FROM events', "UPDATE events SET detail = 'x'", 'CREATE TEMP TABLE z (a)', 'DROP TABLE events', "INSERT INTO events (id) VALUES ('e9')"]) {
    assert.throws(() => store.query(sql), /read-only/, sql);
    assert.throws(() => store.query(sql), /read-only/, `${sql}, asked again (the verdict is cached)`);
  }
  assert.deepEqual(store.query('SELECT COUNT(*) AS n FROM events; DELETE FROM events'), [{ n: 3 }], 'only the first statement runs');
  assert.equal(count(store), 3, 'nothing was written through query()');
  assert.throws(() => store.query('SELEC nonsense'), /syntax error/, "SQL that does not compile gets SQLite's message");
  store.write(event('e4', 'four'));
  assert.deepEqual(store.query('SELECT DISTINCT detail FROM events ORDER BY detail'), [{ detail: 'four' }, { detail: 'one' }, { detail: 'two' }], 'a cached statement sees the write after it');
});

test("tableVersion moves with writes to that table, this process's or another's, and with a rebuild", async (t) => {
  const dataDir = tempDir(t);
  const a = await open(t, dataDir);
  const b = await open(t, dataDir);
  const events = a.tableVersion('events');
  const catalog = a.tableVersion('catalog_tools');
  assert.equal(a.tableVersion('events'), events, 'unchanged when nothing was written');
  a.write(event('e1'));
  assert.notEqual(a.tableVersion('events'), events, 'own write');
  assert.equal(a.tableVersion('catalog_tools'), catalog, 'a write to another table');
  const before = a.tableVersion('events');
  b.write(event('e2'));
  assert.notEqual(a.tableVersion('events'), before, "another Store's write, seen through the change counter");
  const beforeCompaction = a.tableVersion('catalog_tools');
  assert.ok(b.compact());
  b.write(event('e3'));
  assert.notEqual(a.tableVersion('catalog_tools'), beforeCompaction, 'a rebuild from a new snapshot moves every table');
});

test('a second Store on the same data dir sees committed writes on its next query', async (t) => {
  const dataDir = tempDir(t);
  const a = await open(t, dataDir);
  const b = await open(t, dataDir);
  a.write(event('from-a'));
  b.write(event('from-b'));
  assert.equal(count(a), 2);
  assert.equal(count(b), 2);
  assert.equal(journals(dataDir).length, 2, 'one journal per open Store');
});

test('replaying journals over a state that already holds them is harmless', async (t) => {
  const dataDir = tempDir(t);
  const a = await open(t, dataDir);
  a.write(event('e1', 'first'));
  a.write({ op: 'upsert', table: 'events', row: { id: 'e1', detail: 'second' } });
  a.write(event('e2'));
  a.write({ op: 'delete', table: 'events', where: { id: 'e2' } });
  a.write(event('e1', 'ignored'));
  a.write({ op: 'upsert', table: 'catalog_powers', row: { power: 'p', tool_count: 1 } });
  a.write({ op: 'upsert', table: 'catalog_powers', row: { power: 'p', tool_count: 2 } });
  const extra: JournaledStore[] = [];
  const state = () => [a, ...extra].map((s) => s.query('SELECT * FROM events ORDER BY id').concat(s.query('SELECT power, tools_hash, tool_count, refreshed_at FROM catalog_powers')));
  const expected = state()[0];
  assert.deepEqual(expected, [
    { id: 'e1', at: 1, kind: 'test', power: 'p', detail: 'second' },
    { power: 'p', tools_hash: null, tool_count: 2, refreshed_at: null },
  ]);
  assert.equal(a.compact(), true);

  // Snapshot with the data but watermarks cleared: the next open replays a's whole journal on top.
  const file = path.join(dataDir, 'grimoire.sqlite');
  const db = (await loadSqlEngine()).open(fs.readFileSync(file));
  assert.deepEqual(db.exec('SELECT count(*) FROM journal_watermarks')[0]!.values, [[1]]);
  db.exec('DELETE FROM journal_watermarks');
  fs.writeFileSync(file, db.export());
  db.close();
  // And a second copy of the journal, every line twice.
  const own = journals(dataDir)[0]!;
  const text = fs.readFileSync(path.join(journalDir(dataDir), own), 'utf8');
  fs.writeFileSync(path.join(journalDir(dataDir), `${process.pid}-copy.jsonl`), text + text);

  extra.push(await open(t, dataDir));
  for (const s of state()) assert.deepEqual(s, expected);
});

test('deleteBefore: one op deletes the rows before a row value, in (column, column) order; another Store and a replay agree', async (t) => {
  const dataDir = tempDir(t);
  const a = await open(t, dataDir);
  const at = (id: string, time: number): WriteOp => ({ op: 'insert', table: 'events', row: { id, at: time, kind: 'test', power: 'p', detail: null } });
  a.writeMany([at('b', 1), at('a', 2), at('c', 2), at('d', 2), at('e', 3)]);
  assert.throws(() => a.write({ op: 'deleteBefore', table: 'events', before: { at: null } }), /needs a value for "at"/);
  assert.throws(() => a.write({ op: 'deleteBefore', table: 'events', before: { colour: 1 } }), /unknown column "colour"/);
  a.write({ op: 'deleteBefore', table: 'events', before: { at: 2, id: 'c' } });
  const ids = (s: Store) => s.query<{ id: string }>('SELECT id FROM events ORDER BY id').map((r) => r.id);
  assert.deepEqual(ids(a), ['c', 'd', 'e'], 'b (an earlier time) and a (the same time, an earlier id) go');
  const b = await open(t, dataDir);
  assert.deepEqual(ids(b), ['c', 'd', 'e'], 'another Store replays the range from the journal');
  a.write(at('a', 2));
  b.write({ op: 'deleteBefore', table: 'events', before: { at: 1 } });
  assert.deepEqual(ids(a), ['a', 'c', 'd', 'e'], 'a later insert before the cut stays: ops apply in order');
  const lines = journals(dataDir).flatMap((name) => fs.readFileSync(path.join(journalDir(dataDir), name), 'utf8').trim().split('\n'));
  assert.equal(lines.filter((text) => text.includes('"deleteBefore"')).length, 2, 'each range is one op on one journal line');
  assert.equal(a.compact(), true);
  a.close();
  assert.deepEqual(ids(await open(t, dataDir)), ['a', 'c', 'd', 'e'], 'a reopen from the snapshot and what is left of the journals agrees');
});

test('a deleteBefore from another journal that fails validation is skipped with a warning; the rest of its line applies', async (t) => {
  const logs = captureLog(t);
  const dataDir = tempDir(t);
  const store = await open(t, dataDir);
  store.write(event('kept'));
  const name = `${process.pid}-hand.jsonl`;
  const ops = [{ op: 'deleteBefore', table: 'events', before: { at: null } }, { op: 'deleteBefore', table: 'events', before: {} }, event('added')] as WriteOp[];
  fs.writeFileSync(path.join(journalDir(dataDir), name), line(name, 1, ops));
  announce(dataDir);
  assert.deepEqual(store.query('SELECT id FROM events ORDER BY id'), [{ id: 'added' }, { id: 'kept' }]);
  assert.equal(logs.filter((l) => l.includes('skipping op')).length, 2, logs.join('\n'));
});

test('a torn last line is ignored until completed; invalid complete lines are skipped', async (t) => {
  const logs = captureLog(t);
  const dataDir = tempDir(t);
  const store = await open(t, dataDir);
  const name = `${process.pid}-torn.jsonl`;
  const file = path.join(journalDir(dataDir), name);
  const full = line(name, 1, [event('torn')]);
  fs.writeFileSync(file, full.slice(0, 25));
  announce(dataDir);
  assert.equal(count(store), 0, 'half a line is not applied');
  fs.appendFileSync(file, full.slice(25, -1));
  announce(dataDir);
  assert.equal(count(store), 0, 'a line without its newline is not applied');
  fs.appendFileSync(file, '\n');
  announce(dataDir);
  assert.deepEqual(store.query('SELECT id FROM events'), [{ id: 'torn' }]);

  fs.appendFileSync(file, '{"id": garbage\n' + line(name, 2, [event('after')]));
  announce(dataDir);
  assert.deepEqual(store.query('SELECT id FROM events ORDER BY id'), [{ id: 'after' }, { id: 'torn' }]);
  assert.ok(logs.some((l) => l.includes('warn') && l.includes('invalid journal line')), logs.join('\n'));
});

test('a dead writer\'s journal: a whole unterminated last line is folded, a torn one skipped, the file removed', async (t) => {
  const logs = captureLog(t);
  const dataDir = tempDir(t);
  const pid = deadPid();
  const whole = `${pid}-whole.jsonl`;
  const torn = `${pid}-torn.jsonl`;
  fs.mkdirSync(journalDir(dataDir), { recursive: true });
  fs.writeFileSync(path.join(journalDir(dataDir), whole), line(whole, 1, [event('w1')]) + line(whole, 2, [event('w2')]).trimEnd());
  fs.writeFileSync(path.join(journalDir(dataDir), torn), line(torn, 1, [event('t1')]) + line(torn, 2, [event('t2')]).slice(0, 30));
  const store = await open(t, dataDir);
  assert.deepEqual(store.query('SELECT id FROM events ORDER BY id'), [{ id: 't1' }, { id: 'w1' }]);
  assert.equal(store.compact(), true);
  assert.deepEqual(store.query('SELECT id FROM events ORDER BY id'), [{ id: 't1' }, { id: 'w1' }, { id: 'w2' }]);
  assert.deepEqual(journals(dataDir), [], 'the dead writers\' journals are gone (this Store only read: it made none)');
  assert.ok(logs.some((l) => l.includes('unterminated last line')), logs.join('\n'));
  store.close();
  const reopened = await open(t, dataDir);
  assert.equal(count(reopened), 3);
});

test('unknown table or column throws, naming it, before anything is appended', async (t) => {
  const dataDir = tempDir(t);
  const store = await open(t, dataDir);
  const size = () => fs.statSync(path.join(journalDir(dataDir), journals(dataDir)[0]!)).size;
  store.write(event('ok'));
  const before = size();
  assert.throws(() => store.write({ op: 'upsert', table: 'nope', row: { id: 'x' } }), /unknown table "nope"/);
  assert.throws(() => store.write({ op: 'insert', table: 'events', row: { id: 'x', colour: 'red' } }), /unknown column "colour"/);
  assert.throws(() => store.write({ op: 'delete', table: 'events', where: { nope: 1 } }), /unknown column "nope"/);
  assert.throws(() => store.write({ op: 'upsert', table: 'catalog_tools', row: { power: 'p' } }), /key column "tool"/);
  assert.throws(() => store.writeMany([event('good'), { op: 'insert', table: 'events', row: { id: 'y', bad: 1 } }]), /"bad"/);
  assert.equal(size(), before, 'the journal did not grow');
  assert.deepEqual(store.query('SELECT id FROM events'), [{ id: 'ok' }]);
});

test('a corrupt snapshot is moved aside with a warning and the data rebuilt from journals', async (t) => {
  const logs = captureLog(t);
  const dataDir = tempDir(t);
  const writer = await open(t, dataDir);
  for (let i = 0; i < 5; i++) writer.write(event(`e${i}`));
  assert.equal(writer.compact(), true);
  fs.writeFileSync(path.join(dataDir, 'grimoire.sqlite'), 'this is not an sqlite database, '.repeat(50));

  const store = await open(t, dataDir);
  assert.equal(count(store), 5);
  assert.equal(fs.readdirSync(dataDir).filter((n) => n.startsWith('grimoire.sqlite.corrupt-')).length, 1);
  assert.ok(logs.some((l) => l.includes('warn') && l.includes('[store]') && l.includes('unreadable')), logs.join('\n'));

  writer.close();
  store.close();
  assert.ok(fs.existsSync(path.join(dataDir, 'grimoire.sqlite')), 'a fresh snapshot was written');
  const reopened = await open(t, dataDir);
  assert.equal(count(reopened), 5);
});

test('compaction folds journals into the snapshot; closed journals are removed; a reopen sees everything', async (t) => {
  const dataDir = tempDir(t);
  const a = await open(t, dataDir);
  for (let i = 0; i < 10; i++) a.write(event(`a${i}`));
  assert.equal(a.compact(), true);
  assert.ok(fs.existsSync(path.join(dataDir, 'grimoire.sqlite')));
  assert.equal(journals(dataDir).length, 1, 'an open Store keeps its journal');

  const b = await open(t, dataDir);
  for (let i = 0; i < 5; i++) b.write(event(`b${i}`));
  b.close();
  assert.equal(journals(dataDir).length, 1, 'b compacted on close and removed its journal');
  a.write(event('a-late'));
  assert.equal(count(a), 16, 'a sees b\'s records although b\'s journal is gone');
  a.close();
  assert.deepEqual(journals(dataDir), []);

  const c = await open(t, dataDir);
  assert.equal(count(c), 16);
  const marks = c.query<{ offset: number }>('SELECT offset FROM journal_watermarks');
  assert.ok(marks.length > 0 && marks.every((m) => m.offset > 0), 'watermarks recorded in the snapshot');
});

test('compactEvery compacts once the writes pause, or inside a write past twice that', async (t) => {
  const dataDir = tempDir(t);
  const store = await open(t, dataDir, 10);
  const snapshot = path.join(dataDir, 'grimoire.sqlite');
  const lock = path.join(dataDir, 'compact.lock');
  // The pause in the writes runs on node:test's fake clock; the compaction itself is real I/O.
  t.mock.timers.enable({ apis: ['setTimeout'] });
  for (let i = 0; i < 9; i++) store.write(event(`e${i}`));
  t.mock.timers.tick(120);
  assert.equal(fs.existsSync(lock) || fs.existsSync(snapshot), false, 'not before compactEvery ops');
  store.write(event('e9'));
  assert.equal(fs.existsSync(lock), false, 'not inside the write itself');
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(fs.existsSync(lock), false, 'not in the turn right after it: the writes may go on');
  for (let i = 10; i < 15; i++) store.write(event(`e${i}`));
  t.mock.timers.tick(49);
  assert.equal(fs.existsSync(lock), false, 'not before the writes paused');
  t.mock.timers.tick(1);
  assert.equal(fs.existsSync(lock), true, 'started once they paused');
  t.mock.timers.reset();
  const deadline = Date.now() + 5_000;
  while (!fs.existsSync(snapshot) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(fs.existsSync(snapshot), true, 'once they paused');
  assert.equal(count(await open(t, dataDir)), 15, 'with every write');

  const busy = tempDir(t);
  const writer = await open(t, busy, 10);
  for (let i = 0; i < 19; i++) writer.write(event(`b${i}`));
  assert.equal(fs.existsSync(path.join(busy, 'grimoire.sqlite')), false);
  writer.write(event('b19'));
  assert.equal(fs.existsSync(path.join(busy, 'compact.lock')), true, 'a writer that never yields starts compacting inside its write at twice compactEvery');
  assert.equal(fs.existsSync(path.join(busy, 'grimoire.sqlite')), false, 'the snapshot is written off the event loop');
  for (let i = 20; i < 25; i++) writer.write(event(`b${i}`));
  await until(() => fs.existsSync(path.join(busy, 'grimoire.sqlite')) && !fs.existsSync(path.join(busy, 'compact.lock')));
  assert.equal(count(writer), 25, 'writes made while it was written are kept');
  assert.equal(count(await open(t, busy)), 25, 'and seen by the next Store');
});

test('a compaction in flight is abandoned by compact() and close(): they compact at once, nothing is lost', async (t) => {
  for (const finish of ['compact', 'close'] as const) {
    const dataDir = tempDir(t);
    const store = await JournaledStore.open({ dataDir, fsync: false, compactEvery: 5, compactRatio: 0 });
    for (let i = 0; i < 10; i++) store.write(event(`e${i}`));
    assert.equal(fs.existsSync(path.join(dataDir, 'compact.lock')), true, 'a compaction is in flight');
    store.write(event('e10'));
    if (finish === 'compact') {
      assert.equal(store.compact(), true, 'compact() takes over the lock');
      store.close();
    } else {
      store.close();
    }
    assert.equal(fs.existsSync(path.join(dataDir, 'compact.lock')), false, `${finish}: the lock is released`);
    await new Promise((resolve) => setTimeout(resolve, 200)); // the abandoned write finishes meanwhile
    assert.deepEqual(fs.readdirSync(dataDir).filter((name) => name.includes('.tmp-')), [], `${finish}: the abandoned temp file is removed`);
    assert.deepEqual(journals(dataDir), [], `${finish}: the closed Store's journal is folded and deleted`);
    assert.equal(count(await open(t, dataDir)), 11, `${finish}: every write is in the snapshot`);
  }
});

test('compactRatio: past the first snapshot, compaction waits for journal bytes of that share of its size too', async (t) => {
  const dataDir = tempDir(t);
  const store = await JournaledStore.open({ dataDir, fsync: false, compactEvery: 10, compactRatio: 0.5 });
  cleanup(t).stores.push(store);
  const snapshot = path.join(dataDir, 'grimoire.sqlite');
  const lock = path.join(dataDir, 'compact.lock');
  for (let i = 0; i < 20; i++) store.write(event(`e${i}`));
  assert.equal(fs.existsSync(lock), true, 'no snapshot yet: compactEvery alone decides');
  await until(() => fs.existsSync(snapshot) && !fs.existsSync(lock));
  const first = fs.statSync(snapshot);
  const written = () => journals(dataDir).reduce((sum, name) => sum + fs.statSync(path.join(journalDir(dataDir), name)).size, 0);
  const start = written();
  for (let i = 20; i < 60; i++) store.write(event(`e${i}`));
  assert.ok(written() - start < first.size, 'the small writes stay below the snapshot size');
  assert.equal(fs.existsSync(lock), false, 'twice compactEvery ops, but not yet half the snapshot in bytes, twice: no compaction');
  const detail = 'x'.repeat(1024);
  let i = 60;
  while (!fs.existsSync(lock) && written() - start < 2 * first.size) store.write(event(`e${i++}`, detail));
  assert.equal(fs.existsSync(lock), true, 'a compaction started inside a write once the bytes reached the snapshot size');
  assert.ok(written() - start >= first.size, `only then (${written() - start} of ${first.size} bytes)`);
  await until(() => !fs.existsSync(lock));
  assert.notEqual(fs.statSync(snapshot).ino, first.ino, 'and replaced the snapshot');
  assert.equal(count(await open(t, dataDir)), i, 'with every write');
});

test('journals are read when the change counter moved, and listed at least every second regardless', async (t) => {
  const dataDir = tempDir(t);
  const store = await JournaledStore.open({ dataDir, fsync: false, listEveryMs: 60_000 });
  cleanup(t).stores.push(store);
  const name = `${process.pid}-quiet.jsonl`;
  fs.writeFileSync(path.join(journalDir(dataDir), name), line(name, 1, [event('quiet')]));
  assert.equal(count(store), 0, 'a line nobody announced is not looked for on every query');
  announce(dataDir);
  assert.equal(count(store), 1, 'announced: read on the next query');

  // listEveryMs runs on node:test's fake clock; the journals are real files.
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const polling = await JournaledStore.open({ dataDir, fsync: false, listEveryMs: 200 });
  cleanup(t).stores.push(polling);
  assert.equal(count(polling), 1);
  fs.appendFileSync(path.join(journalDir(dataDir), name), line(name, 2, [event('older-writer')]));
  t.mock.timers.tick(100);
  assert.equal(count(polling), 1, 'within listEveryMs an unannounced line is not looked for');
  t.mock.timers.tick(200);
  assert.equal(count(polling), 2, 'a writer that does not announce (an older version) is seen after listEveryMs');
  assert.equal(count(store), 1, 'and not before');
});

test('group commit: writes are visible and crash-safe at once, synced in batches; durable() waits for the sync', async (t) => {
  const dataDir = tempDir(t);
  const store = await JournaledStore.open({ dataDir });
  cleanup(t).stores.push(store);
  const other = await open(t, dataDir);
  for (let i = 0; i < 100; i++) {
    store.write(event(`g${i}`));
    assert.equal(count(other), i + 1, 'another Store sees each write as soon as it returns');
  }
  const own = path.join(journalDir(dataDir), journals(dataDir).find((n) => n.startsWith(`${process.pid}-`) && fs.readFileSync(path.join(journalDir(dataDir), n), 'utf8').includes('g99'))!);
  assert.equal(fs.readFileSync(own, 'utf8').trimEnd().split('\n').length, 100, 'every write is in the journal file before durable()');
  await store.durable();
  const syncs = store.journalSyncs;
  assert.ok(syncs >= 1 && syncs < 100, `100 writes took ${syncs} fdatasync calls`);
  await store.durable();
  assert.equal(store.journalSyncs, syncs, 'nothing new to sync: durable() resolves without a sync');
});

test('the compaction lock: a live holder wins; a dead, old or unreadable-and-old lock is broken', async (t) => {
  const logs = captureLog(t);
  const dataDir = tempDir(t);
  const store = await open(t, dataDir);
  store.write(event('e'));
  const lock = path.join(dataDir, 'compact.lock');
  const holder = (pid: number, age: number) => JSON.stringify({ pid, ts: Date.now() - age, token: 'someone-else' });

  fs.writeFileSync(lock, holder(process.pid, 0));
  assert.equal(store.compact(), false, 'held by a live process');
  assert.equal(fs.readFileSync(lock, 'utf8').includes('someone-else'), true, 'left in place');

  fs.writeFileSync(lock, holder(process.pid, 31_000));
  assert.equal(store.compact(), true, 'older than 30 s');
  assert.equal(fs.existsSync(lock), false, 'released after compaction');

  fs.writeFileSync(lock, holder(deadPid(), 0));
  assert.equal(store.compact(), true, 'holder is dead');

  fs.writeFileSync(lock, '');
  assert.equal(store.compact(), false, 'a fresh empty lock is being written by its holder');
  const old = (Date.now() - 60_000) / 1000;
  fs.utimesSync(lock, old, old);
  assert.equal(store.compact(), true, 'an empty lock older than 30 s is stale');
  assert.equal(logs.filter((l) => l.includes('broke stale compaction lock')).length, 3);
});

test('a Store that only reads creates no journal and does not compact on close', async (t) => {
  const dataDir = tempDir(t);
  const writer = await open(t, dataDir);
  writer.write(event('w'));
  const before = journals(dataDir);
  const reader = await JournaledStore.open({ dataDir, fsync: false });
  assert.equal(count(reader), 1);
  reader.close();
  assert.deepEqual(journals(dataDir), before, 'no journal of its own');
  assert.equal(fs.existsSync(path.join(dataDir, 'grimoire.sqlite')), false, 'no snapshot written: the writer is alive');
});

test('close is idempotent and the Store refuses use afterwards', async (t) => {
  const dataDir = tempDir(t);
  const store = await JournaledStore.open({ dataDir, fsync: false });
  store.write(event('e'));
  store.close();
  store.close();
  assert.throws(() => store.write(event('f')), /closed/);
  assert.throws(() => store.query('SELECT 1'), /closed/);
  const reopened = await open(t, dataDir);
  assert.equal(count(reopened), 1);
});

test('a journal past rotateJournalBytes is left for a new one after a compaction, and the next compaction deletes it: nothing is lost, another Store keeps up', async (t) => {
  const dataDir = tempDir(t);
  const store = await JournaledStore.open({ dataDir, fsync: false, compactEvery: 0, rotateJournalBytes: 2_000 });
  const other = await JournaledStore.open({ dataDir, fsync: false, compactEvery: 0 });
  try {
    for (let i = 0; i < 40; i++) store.write(event(`e${i}`, 'x'.repeat(50)));
    const [first] = journals(dataDir);
    assert.ok(fs.statSync(path.join(journalDir(dataDir), first!)).size >= 2_000);
    assert.equal(store.compact(), true);
    assert.equal(journals(dataDir).length, 2, 'a new journal beside the old one');
    store.write(event('e40'));
    assert.equal(fs.statSync(path.join(journalDir(dataDir), first!)).size > 0, true, 'the old one is not written to');
    assert.equal(count(other), 41, 'another Store sees both journals');
    assert.equal(store.compact(), true);
    assert.equal(journals(dataDir).includes(first!), false, 'the old journal, folded in, is deleted');
    assert.equal(journals(dataDir).length, 1);
    store.write(event('e41'));
    assert.equal(count(other), 42, 'another Store reloads past the deleted journal');
    assert.equal(count(store), 42);
  } finally {
    store.close();
    other.close();
  }
  assert.equal(count(await open(t, dataDir)), 42, 'and a new Store opens every row');
});

test('a small journal is kept after a compaction', async (t) => {
  const dataDir = tempDir(t);
  const store = await JournaledStore.open({ dataDir, fsync: false, compactEvery: 0 });
  try {
    for (let i = 0; i < 5; i++) store.write(event(`e${i}`));
    const before = journals(dataDir);
    assert.equal(store.compact(), true);
    assert.deepEqual(journals(dataDir), before);
  } finally {
    store.close();
  }
});
