import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ActivityLog, type ActivityCall } from '../../server/activity/activity-log.js';
import type { ActivityInfo } from '../../server/rpc/protocol.js';
import { setLogSink } from '../../server/log.js';
import { Store, type EmbeddedStore } from '../../server/store/store.js';
import { tempStore } from '../helpers/temp-store.js';

type After = { after(fn: () => void): void };

const call = (tool: string): ActivityCall => ({ session: 's', power: 'memory', tool, variant: 'read', decision: 'allowed', status: 'ok', latencyMs: 3, resultBytes: 10 });

/** What another process on the data dir sees: a second Store on it. */
async function otherProcess(t: After, dataDir: string) {
  const store = await Store.open({ dataDir, fsync: false });
  t.after(() => store.close());
  return { ids: () => store.query<{ id: string }>('SELECT id FROM activity ORDER BY at, id').map((r) => r.id) };
}

/** Runs `before` ahead of each of the store's writes (it may throw, failing the write). */
function beforeWrites(store: EmbeddedStore, before: () => void): void {
  const writeMany = store.writeMany.bind(store);
  store.writeMany = (ops) => {
    before();
    writeMany(ops);
  };
}

test('recordSoon announces a call at once and writes it within the write-behind delay, several calls in one write', async (t) => {
  const { store, dataDir } = await tempStore(t);
  const other = await otherProcess(t, dataDir);
  const log = new ActivityLog(store);
  let writes = 0;
  beforeWrites(store, () => (writes += 1));
  const live: ActivityInfo[] = [];
  log.on('recorded', (entry) => live.push(entry));
  const versionBefore = log.version;
  const [first] = log.recordSoon([call('read_graph')]);
  const [second] = log.recordSoon([call('search_nodes')]);
  assert.deepEqual(live, [first, second], 'announced as recorded at once');
  assert.ok(log.version > versionBefore, 'the version moves with the record, for caches built on the log');
  assert.deepEqual(other.ids(), [], 'not in the store yet');
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.deepEqual(new Set(other.ids()), new Set([first!.id, second!.id]), 'written without a read asking for it');
  assert.equal(writes, 1, 'the two calls went to the store in one write');
});

test('every read of the log, and flush(), writes what recordSoon holds first', async (t) => {
  const { store, dataDir } = await tempStore(t);
  const other = await otherProcess(t, dataDir);
  const log = new ActivityLog(store);
  const [a] = log.recordSoon([call('read_graph')]);
  assert.deepEqual(log.query({}).map((e) => e.id), [a!.id], 'query sees the call recorded just before');
  assert.deepEqual(other.ids(), [a!.id], 'and the read wrote it for everyone');
  const [b] = log.recordSoon([call('search_nodes')]);
  log.rate(b!.id, 1);
  assert.equal(log.recent(1)[0]!.rating, 1, 'a call can be rated the moment it is recorded');
  const [c] = log.recordSoon([call('open_nodes')]);
  assert.equal(log.prune(30, 2), 1, 'retention counts the held call');
  assert.deepEqual(new Set(log.query({}).map((e) => e.id)), new Set([b!.id, c!.id]));
  const [d] = log.recordSoon([call('read_graph')]);
  log.flush();
  assert.ok(other.ids().includes(d!.id), 'flush() writes at once (shutdown calls it before the store closes)');
});

test('a store that fails the write loses only the held calls, with a warning, and the log goes on', async (t) => {
  const { store } = await tempStore(t);
  const log = new ActivityLog(store);
  let fail = true;
  beforeWrites(store, () => {
    if (fail) throw new Error('disk full');
  });
  const lines: string[] = [];
  setLogSink((line) => lines.push(line));
  t.after(() => setLogSink((line) => process.stderr.write(line + '\n')));
  log.recordSoon([call('read_graph')]);
  assert.doesNotThrow(() => log.flush());
  assert.ok(lines.some((line) => /could not record 1 call\(s\) to memory:read_graph: disk full/.test(line)), lines.join('\n'));
  fail = false;
  const [kept] = log.recordSoon([call('search_nodes')]);
  assert.deepEqual(log.query({}).map((e) => e.id), [kept!.id]);
});
