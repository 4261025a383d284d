import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ActivityLog } from '../../server/activity/activity-log.js';
import type { ActivityInfo } from '../../server/rpc/protocol.js';
import { PRUNE_EVERY, recordStage } from '../../server/calls/record-stage.js';
import type { CallContext } from '../../server/calls/pipeline.js';
import { setLogSink } from '../../server/log.js';
import { tempStore } from '../helpers/temp-store.js';

const retention = () => ({ retentionDays: 30, maxEntries: 10_000 });
const turn = () => new Promise((resolve) => setImmediate(resolve));
/** Past the activity log's write-behind (20 ms). */
const written = () => new Promise((resolve) => setTimeout(resolve, 60));

function context(tool: string): CallContext {
  return { power: 'p', tool, calledAs: `p__${tool}`, args: {}, sessionId: 's1', startedAt: Date.now() - 5, variant: 'direct', annotations: { source: 'server' } };
}

const ok = (text: string): CallToolResult => ({ content: [{ type: 'text', text }] });

async function setup(t: { after(fn: () => void): void }) {
  const { store, dataDir } = await tempStore(t);
  const activity = new ActivityLog(store);
  const recorded: ActivityInfo[] = [];
  activity.on('recorded', (entry) => recorded.push(entry));
  const journalLines = () =>
    fs
      .readdirSync(path.join(dataDir, 'journals'))
      .flatMap((name) => fs.readFileSync(path.join(dataDir, 'journals', name), 'utf8').split('\n').filter(Boolean));
  return { store, activity, recorded, journalLines, stage: recordStage(activity, retention) };
}

test('calls answered in one turn are recorded after their answers and written shortly after, together in one store write', async (t) => {
  const { store, recorded, journalLines, stage } = await setup(t);
  const answers = await Promise.all(['a', 'b', 'c', 'd'].map((tool) => stage(context(tool), async () => ok(`answer ${tool}`))));
  assert.deepEqual(answers.map((a) => (a.content[0] as { text: string }).text), ['answer a', 'answer b', 'answer c', 'answer d'], 'each answer is the next stage\'s, unchanged');
  assert.equal(store.query('SELECT id FROM activity').length, 0, 'the answers did not wait for the log');
  await turn();
  assert.equal(recorded.length, 4, "each call is announced as 'recorded' once the answers are out");
  assert.equal(store.query('SELECT id FROM activity').length, 0, 'the store write waits for the calls of the next milliseconds');
  await written();
  const rows = store.query<{ tool: string; status: string; latency_ms: number; result_bytes: number }>('SELECT tool, status, latency_ms, result_bytes FROM activity ORDER BY tool');
  assert.deepEqual(rows.map((r) => [r.tool, r.status]), [['a', 'ok'], ['b', 'ok'], ['c', 'ok'], ['d', 'ok']]);
  assert.ok(rows.every((r) => r.latency_ms >= 5 && r.result_bytes > 0), 'latency measured to the answer, result sized');
  assert.equal(journalLines().length, 1, 'one journal line for the four calls');
});

test('a failed call and a throwing stage are recorded too; a record that cannot be written does not fail the answer', async (t) => {
  const { store, stage } = await setup(t);
  const failed = await stage(context('bad'), async () => ({ content: [{ type: 'text', text: 'boom' }], isError: true }));
  assert.equal(failed.isError, true);
  await assert.rejects(stage(context('throws'), async () => Promise.reject(new Error('lost'))), /lost/);
  await turn();
  await written();
  const rows = store.query<{ tool: string; status: string; error: string }>('SELECT tool, status, error FROM activity ORDER BY tool');
  assert.deepEqual(rows, [
    { tool: 'bad', status: 'error', error: 'boom' },
    { tool: 'throws', status: 'error', error: 'the call threw' },
  ]);

  const lines: string[] = [];
  setLogSink((line) => lines.push(line));
  t.after(() => setLogSink((line) => process.stderr.write(line + '\n')));
  const answer = await stage(context('late'), async () => ok('fine'));
  store.close();
  await turn();
  await written();
  assert.equal((answer.content[0] as { text: string }).text, 'fine');
  assert.ok(lines.some((line) => /could not record 1 call\(s\) to p:late/.test(line)), lines.join('\n'));
});

test('retention is applied once every PRUNE_EVERY recorded calls, not before', async (t) => {
  const { store, activity } = await setup(t);
  const stage = recordStage(activity, () => ({ retentionDays: 30, maxEntries: 10 }));
  const calls = async (n: number) => {
    for (let i = 0; i < n; i += 50) await Promise.all(Array.from({ length: Math.min(50, n - i) }, () => stage(context('t'), async () => ok('x'))));
    await turn();
    activity.flush();
  };
  await calls(PRUNE_EVERY - 1);
  assert.equal(store.query('SELECT id FROM activity').length, PRUNE_EVERY - 1, 'no pass before PRUNE_EVERY calls');
  await calls(1);
  assert.equal(store.query('SELECT id FROM activity').length, 10, 'the pass at the PRUNE_EVERY-th call keeps maxEntries');
});
