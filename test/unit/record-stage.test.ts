import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CallToolResult } from '../../server/util/mcp-types.js';
import { ActivityLog } from '../../server/activity/activity-log.js';
import type { ActivityInfo } from '../../protocol/records.js';
import { PRUNE_EVERY, recordStage } from '../../server/calls/record-stage.js';
import type { CallContext } from '../../server/calls/pipeline.js';
import { setLogSink } from '../../server/log.js';
import { EventLog } from '../../server/activity/event-log.js';
import { RecordingGate } from '../../server/calls/recording-gate.js';
import { tempStore } from '../helpers/temp-store.js';

const retention = () => ({ retentionDays: 30, maxEntries: 10_000 });

function context(tool: string): CallContext {
  return {
    power: 'p',
    tool,
    calledAs: `p__${tool}`,
    args: {},
    sessionId: 's1',
    startedAt: Date.now() - 5,
    variant: 'direct',
    annotations: { source: 'server' },
  };
}

const textOf = (result: CallToolResult): string => result.content.map((c) => ('text' in c ? c.text : '')).join('\n');
const ok = (text: string): CallToolResult => ({ content: [{ type: 'text', text }] });

async function setup(t: { after(fn: () => void): void }) {
  const { store } = await tempStore(t);
  const activity = new ActivityLog(store);
  const recorded: ActivityInfo[] = [];
  activity.on('recorded', (entry) => recorded.push(entry));
  const writes: number[] = [];
  const writeMany = store.writeMany.bind(store);
  const failing: { error?: Error } = {};
  store.writeMany = (ops) => {
    if (failing.error) throw failing.error;
    writes.push(ops.length);
    writeMany(ops);
  };
  const events = new EventLog(store);
  const gate = () =>
    new RecordingGate({
      where: `the data folder ${store.dataDir}`,
      probe: async (detail) => events.record('activity-log-resumed', null, detail),
    });
  return { store, activity, recorded, writes, failing, gate, stage: recordStage(activity, retention, gate()) };
}

test('calls answered in one turn are recorded together, in one store write, before their answers are sent', async (t) => {
  const { store, recorded, writes, stage } = await setup(t);
  const answers = await Promise.all(
    ['a', 'b', 'c', 'd'].map((tool) => stage(context(tool), async () => ok(`answer ${tool}`))),
  );
  assert.deepEqual(
    answers.map((a) => (a.content[0] as { text: string }).text),
    ['answer a', 'answer b', 'answer c', 'answer d'],
    "each answer is the next stage's, unchanged",
  );
  assert.equal(recorded.length, 4, "each call is announced as 'recorded' by the time its answer is out");
  const rows = store.query<{ tool: string; status: string; latency_ms: number; result_bytes: number }>(
    'SELECT tool, status, latency_ms, result_bytes FROM activity ORDER BY tool',
  );
  assert.deepEqual(
    rows.map((r) => [r.tool, r.status]),
    [
      ['a', 'ok'],
      ['b', 'ok'],
      ['c', 'ok'],
      ['d', 'ok'],
    ],
    'committed before the answers',
  );
  assert.ok(
    rows.every((r) => r.latency_ms >= 5 && r.result_bytes > 0),
    'latency measured to the answer, result sized',
  );
  assert.deepEqual(writes, [4], 'one store write for the four calls');
  await stage(context('e'), async () => ok('answer e'));
  assert.deepEqual(writes, [4, 1], 'a call of a later turn: a write of its own');
});

test('a failed call and a throwing stage are recorded too', async (t) => {
  const { store, stage } = await setup(t);
  const failed = await stage(context('bad'), async () => ({
    content: [{ type: 'text', text: 'boom' }],
    isError: true,
  }));
  assert.equal(failed.isError, true);
  await assert.rejects(
    stage(context('throws'), async () => Promise.reject(new Error('lost'))),
    /lost/,
  );
  const rows = store.query<{ tool: string; status: string; error: string }>(
    'SELECT tool, status, error FROM activity ORDER BY tool',
  );
  assert.deepEqual(rows, [
    { tool: 'bad', status: 'error', error: 'boom' },
    { tool: 'throws', status: 'error', error: 'the call threw' },
  ]);
});

test(
  'a record that cannot be committed fails the answer; until the store takes a write again no tool is ' +
    'called; then calls run and are recorded again',
  async (t) => {
    const { store, stage, failing } = await setup(t);
    const lines: string[] = [];
    setLogSink((line) => lines.push(line));
    t.after(() => setLogSink((line) => process.stderr.write(line + '\n')));
    // The store's own failure is exercised on a real full disk in test/integration/audit-fails-closed.test.ts.
    failing.error = Object.assign(
      new Error('store: could not write x/grimoire.db (SQLITE_FULL: database or disk is full; the disk is full)'),
      { code: 'SQLITE_FULL' },
    );
    let ran = 0;
    const tool = async () => {
      ran += 1;
      return ok('fine');
    };
    const lost = await stage(context('late'), tool);
    assert.equal(ran, 1, 'the store was writable as far as anyone knew: the tool ran');
    assert.equal(lost.isError, true, 'not answered as a success');
    assert.match(textOf(lost), /could not record this call .*the data folder .*SQLITE_FULL.*withheld.*did run/s);
    assert.ok(!textOf(lost).includes('fine'), 'the unrecorded result is withheld');
    assert.ok(
      lines.some((line) => /could not record 1 call\(s\) to p:late: .*SQLITE_FULL/.test(line)),
      lines.join('\n'),
    );

    const refused = await Promise.all([stage(context('a'), tool), stage(context('b'), tool)]);
    assert.equal(ran, 1, 'known unwritable: no tool called');
    assert.ok(
      refused.every((r) => r.isError && /did not call this tool.*SQLITE_FULL/s.test(textOf(r))),
      refused.map(textOf).join('\n'),
    );

    failing.error = undefined;
    const back = await stage(context('again'), tool);
    assert.equal(textOf(back), 'fine', 'writable again: the call runs, without a restart');
    assert.equal(ran, 2);
    assert.deepEqual(
      store.query<{ tool: string }>('SELECT tool FROM activity ORDER BY at').map((r) => r.tool),
      ['again'],
    );
    const [event] = store.query<{ kind: string; detail: string }>('SELECT kind, detail FROM events');
    assert.equal(event?.kind, 'activity-log-resumed');
    assert.match(event!.detail, /1 call\(s\) ran unrecorded .* 2 refused/);
  },
);

test('retention is applied once every PRUNE_EVERY recorded calls, not before', async (t) => {
  const { store, activity, gate } = await setup(t);
  const stage = recordStage(activity, () => ({ retentionDays: 30, maxEntries: 10 }), gate());
  const calls = async (n: number) => {
    for (let i = 0; i < n; i += 50)
      await Promise.all(Array.from({ length: Math.min(50, n - i) }, () => stage(context('t'), async () => ok('x'))));
  };
  await calls(PRUNE_EVERY - 1);
  assert.equal(store.query('SELECT id FROM activity').length, PRUNE_EVERY - 1, 'no pass before PRUNE_EVERY calls');
  await calls(1);
  await new Promise((resolve) => setImmediate(resolve)); // the pass reads the log after the answer, with queries that can wait
  assert.equal(
    store.query('SELECT id FROM activity').length,
    10,
    'the pass at the PRUNE_EVERY-th call keeps maxEntries',
  );
});
