import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ActivityLog } from '../../server/activity/activity-log.js';
import type { ActivityInfo } from '../../protocol/records.js';
import { PRUNE_EVERY, recordStage } from '../../server/calls/record-stage.js';
import type { CallContext } from '../../server/calls/pipeline.js';
import { setLogSink } from '../../server/log.js';
import { tempStore } from '../helpers/temp-store.js';

const retention = () => ({ retentionDays: 30, maxEntries: 10_000 });

function context(tool: string): CallContext {
  return { power: 'p', tool, calledAs: `p__${tool}`, args: {}, sessionId: 's1', startedAt: Date.now() - 5, variant: 'direct', annotations: { source: 'server' } };
}

const ok = (text: string): CallToolResult => ({ content: [{ type: 'text', text }] });

async function setup(t: { after(fn: () => void): void }) {
  const { store } = await tempStore(t);
  const activity = new ActivityLog(store);
  const recorded: ActivityInfo[] = [];
  activity.on('recorded', (entry) => recorded.push(entry));
  const writes: number[] = [];
  const writeMany = store.writeMany.bind(store);
  store.writeMany = (ops) => {
    writes.push(ops.length);
    writeMany(ops);
  };
  return { store, activity, recorded, writes, stage: recordStage(activity, retention) };
}

test('calls answered in one turn are recorded together, in one store write, before their answers are sent', async (t) => {
  const { store, recorded, writes, stage } = await setup(t);
  const answers = await Promise.all(['a', 'b', 'c', 'd'].map((tool) => stage(context(tool), async () => ok(`answer ${tool}`))));
  assert.deepEqual(answers.map((a) => (a.content[0] as { text: string }).text), ['answer a', 'answer b', 'answer c', 'answer d'], 'each answer is the next stage\'s, unchanged');
  assert.equal(recorded.length, 4, "each call is announced as 'recorded' by the time its answer is out");
  const rows = store.query<{ tool: string; status: string; latency_ms: number; result_bytes: number }>('SELECT tool, status, latency_ms, result_bytes FROM activity ORDER BY tool');
  assert.deepEqual(rows.map((r) => [r.tool, r.status]), [['a', 'ok'], ['b', 'ok'], ['c', 'ok'], ['d', 'ok']], 'committed before the answers');
  assert.ok(rows.every((r) => r.latency_ms >= 5 && r.result_bytes > 0), 'latency measured to the answer, result sized');
  assert.deepEqual(writes, [4], 'one store write for the four calls');
  await stage(context('e'), async () => ok('answer e'));
  assert.deepEqual(writes, [4, 1], 'a call of a later turn: a write of its own');
});

test('a failed call and a throwing stage are recorded too; a record that cannot be written does not fail the answer', async (t) => {
  const { store, stage } = await setup(t);
  const failed = await stage(context('bad'), async () => ({ content: [{ type: 'text', text: 'boom' }], isError: true }));
  assert.equal(failed.isError, true);
  await assert.rejects(stage(context('throws'), async () => Promise.reject(new Error('lost'))), /lost/);
  const rows = store.query<{ tool: string; status: string; error: string }>('SELECT tool, status, error FROM activity ORDER BY tool');
  assert.deepEqual(rows, [
    { tool: 'bad', status: 'error', error: 'boom' },
    { tool: 'throws', status: 'error', error: 'the call threw' },
  ]);

  const lines: string[] = [];
  setLogSink((line) => lines.push(line));
  t.after(() => setLogSink((line) => process.stderr.write(line + '\n')));
  store.close();
  const answer = await stage(context('late'), async () => ok('fine'));
  assert.equal((answer.content[0] as { text: string }).text, 'fine');
  assert.ok(lines.some((line) => /could not record 1 call\(s\) to p:late/.test(line)), lines.join('\n'));
});

test('retention is applied once every PRUNE_EVERY recorded calls, not before', async (t) => {
  const { store, activity } = await setup(t);
  const stage = recordStage(activity, () => ({ retentionDays: 30, maxEntries: 10 }));
  const calls = async (n: number) => {
    for (let i = 0; i < n; i += 50) await Promise.all(Array.from({ length: Math.min(50, n - i) }, () => stage(context('t'), async () => ok('x'))));
  };
  await calls(PRUNE_EVERY - 1);
  assert.equal(store.query('SELECT id FROM activity').length, PRUNE_EVERY - 1, 'no pass before PRUNE_EVERY calls');
  await calls(1);
  await new Promise((resolve) => setImmediate(resolve)); // the pass reads the log after the answer, with queries that can wait
  assert.equal(store.query('SELECT id FROM activity').length, 10, 'the pass at the PRUNE_EVERY-th call keeps maxEntries');
});
