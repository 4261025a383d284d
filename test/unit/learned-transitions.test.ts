import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ActivityLog } from '../../server/activity/activity-log.js';
import { LearnedTransitions } from '../../server/hints/learned-transitions.js';
import type { SqlValue } from '../../server/store/store.js';
import { tempStore } from '../helpers/temp-store.js';

/** Transitions fed by the activity log's 'recorded' event, as the gateway wires them. */
async function observing(t: { after(fn: () => void): void }) {
  const { store } = await tempStore(t);
  const activity = new ActivityLog(store);
  const transitions = new LearnedTransitions(store, () => activity.version);
  activity.on('recorded', (call) => transitions.observe(call));
  return { store, activity, transitions };
}

/** What a full scan of the log counts: a new reader's first read. */
async function fullScan(store: LearnedTransitionsStore) {
  const fresh = new LearnedTransitions(store, () => 0);
  await fresh.refresh();
  return fresh.all();
}
type LearnedTransitionsStore = ConstructorParameters<typeof LearnedTransitions>[0];

test('learned transitions read only new rows between full scans, and agree with a full scan', async (t) => {
  const { store } = await tempStore(t);
  let version = 0;
  let id = 0;
  const call = (session: string, tool: string, at: number, status = 'ok') => {
    store.write({
      op: 'insert',
      table: 'activity',
      row: {
        id: `r${String(id++).padStart(4, '0')}`,
        at,
        session,
        power: 'm',
        tool,
        variant: 'direct',
        decision: 'allowed',
        status,
        latency_ms: 1,
        result_bytes: 1,
      },
    });
    version += 1;
  };
  const incremental = new LearnedTransitions(store, () => version);
  const base = 1_000_000;
  call('s1', 'search', base);
  call('s1', 'open', base + 10);
  call('s2', 'search', base + 10);
  assert.deepEqual(incremental.from('m:search', 1), [], 'nothing before the first read is in');
  await incremental.refresh();
  assert.deepEqual(
    incremental.from('m:search', 1).map((x) => x.to),
    ['m:open'],
  );

  // Same millisecond as the last row read, another session interleaved, an error, a gap over 15 minutes.
  call('s2', 'open', base + 10);
  call('s1', 'read', base + 20, 'error');
  call('s3', 'search', base + 30);
  call('s3', 'open', base + 30 + 16 * 60_000);
  incremental.all();
  await incremental.refresh(); // the incremental read that use started (the version moved)
  assert.deepEqual(incremental.all(), await fullScan(store), 'incremental equals a full scan');
  assert.deepEqual(
    incremental.from('m:search', 1).map((x) => [x.to, x.support]),
    [['m:open', 2]],
  );
  assert.deepEqual(
    incremental.from('m:open', 1).map((x) => [x.to, x.support, x.errorRate]),
    [['m:read', 1, 1]],
  );
});

test("this process's calls come from the activity log's 'recorded' event, without a query, and agree with a full scan", async (t) => {
  const { store, activity, transitions } = await observing(t);
  let queries = 0;
  const read = store.read.bind(store);
  store.read = ((sql: string, params?: SqlValue[]) => {
    queries += 1;
    return read(sql, params);
  }) as typeof store.read;
  const base = 1_000_000;
  const call = (session: string, tool: string, at: number, status: 'ok' | 'error' | 'rejected' = 'ok') => ({
    at,
    session,
    power: 'm',
    tool,
    variant: 'direct',
    decision: 'allowed' as const,
    status,
    latencyMs: 1,
    resultBytes: 1,
  });
  activity.recordMany([call('s1', 'search', base), call('s1', 'open', base + 10)]);
  await transitions.refresh();
  assert.deepEqual(
    transitions.from('m:search', 1).map((x) => x.to),
    ['m:open'],
  );
  const afterFirstRead = queries;

  activity.recordMany([
    call('s2', 'search', base + 10),
    call('s2', 'open', base + 11),
    call('s1', 'read', base + 11, 'error'),
  ]);
  activity.record(call('s3', 'search', base + 30));
  activity.record(call('s3', 'delete', base + 31, 'rejected'));
  activity.record(call('s3', 'open', base + 32));
  assert.deepEqual(
    transitions.from('m:search', 1).map((x) => [x.to, x.support]),
    [['m:open', 3]],
  );
  assert.equal(queries, afterFirstRead, 'no query for calls this process recorded');
  assert.deepEqual(transitions.all(), await fullScan(store), 'the same as a full scan');
});

test('observed calls nobody reads are not kept past a bound: the next read scans the log', async (t) => {
  const { store, activity, transitions } = await observing(t);
  const call = (tool: string, at: number) => ({
    at,
    session: 's1',
    power: 'm',
    tool,
    variant: 'direct',
    decision: 'allowed' as const,
    status: 'ok' as const,
    latencyMs: 1,
    resultBytes: 1,
  });
  await transitions.refresh();
  const base = 2_000_000;
  activity.recordMany(Array.from({ length: 1_500 }, (_, i) => call(i % 2 === 0 ? 'search' : 'open', base + i)));
  assert.ok((transitions as unknown as { observed: unknown[] }).observed.length < 1_000, 'the backlog was dropped');
  transitions.all();
  await transitions.refresh();
  assert.deepEqual(transitions.all(), await fullScan(store), 'and the read is a full scan');
  assert.deepEqual(
    transitions.from('m:search', 1).map((x) => [x.to, x.support]),
    [['m:open', 750]],
  );
});

test('new calls re-rank the transitions from the tool they follow, as a full scan ranks them', async (t) => {
  const { store, activity, transitions } = await observing(t);
  let at = 1_000_000;
  const call = (session: string, tool: string) => ({
    at: at++,
    session,
    power: 'm',
    tool,
    variant: 'direct',
    decision: 'allowed' as const,
    status: 'ok' as const,
    latencyMs: 1,
    resultBytes: 1,
  });
  activity.recordMany([
    call('s1', 'search'),
    call('s1', 'open'),
    call('s1', 'search'),
    call('s1', 'open'),
    call('s1', 'read'),
  ]);
  await transitions.refresh();
  assert.deepEqual(
    transitions.from('m:search', 1).map((x) => [x.to, x.support]),
    [['m:open', 2]],
  );
  const readTransitions = transitions.from('m:open', 1);
  activity.recordMany([
    call('s2', 'search'),
    call('s2', 'close'),
    call('s3', 'search'),
    call('s3', 'close'),
    call('s4', 'search'),
    call('s4', 'close'),
  ]);
  activity.recordMany([call('s2', 'search'), call('s2', 'search')]);
  assert.deepEqual(
    transitions.from('m:search', 1).map((x) => [x.to, x.support]),
    [
      ['m:close', 3],
      ['m:open', 2],
    ],
  );
  assert.deepEqual(
    transitions.from('m:search', 3).map((x) => x.to),
    ['m:close'],
  );
  assert.deepEqual(transitions.from('m:open', 1), readTransitions, 'a tool no new call followed keeps its transitions');
  assert.deepEqual(
    transitions.from('m:search', 1).filter((x) => x.to === 'm:search'),
    [],
    'a tool following itself is no transition',
  );
  assert.deepEqual(transitions.all(), await fullScan(store), 'incremental equals a full scan');
});
