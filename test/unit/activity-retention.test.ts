import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ActivityLog } from '../../server/activity/activity-log.js';
import { tempStore } from '../helpers/temp-store.js';

const DAY = 24 * 3600 * 1000;

test('retention drops rows past the age, then the oldest beyond the cap; under both it drops nothing', async (t) => {
  const { store } = await tempStore(t);
  const activity = new ActivityLog(store);
  const now = Date.UTC(2026, 0, 15);
  const call = (tool: string, at: number) => ({
    at,
    session: 's',
    power: 'p',
    tool,
    variant: 'direct',
    decision: 'allowed' as const,
    status: 'ok' as const,
    latencyMs: 1,
    resultBytes: 1,
  });
  activity.recordMany([
    call('old1', now - 40 * DAY),
    call('old2', now - 31 * DAY),
    ...Array.from({ length: 8 }, (_, i) => call(`t${i}`, now - (8 - i) * 1000)),
  ]);
  assert.equal(await activity.prune(30, 100, now), 2, 'only the two past 30 days');
  assert.equal(await activity.prune(30, 8, now), 0, 'exactly at the cap');
  assert.equal(await activity.prune(30, 5, now), 3);
  assert.deepEqual(
    store.query<{ tool: string }>('SELECT tool FROM activity ORDER BY at').map((r) => r.tool),
    ['t3', 't4', 't5', 't6', 't7'],
  );
});

test('retention at the cap drops exactly the excess, oldest first, also among calls recorded in the same millisecond', async (t) => {
  const { store } = await tempStore(t);
  const activity = new ActivityLog(store);
  const now = Date.UTC(2026, 0, 15);
  const call = (tool: string, at: number) => ({
    at,
    session: 's',
    power: 'p',
    tool,
    variant: 'direct',
    decision: 'allowed' as const,
    status: 'ok' as const,
    latencyMs: 1,
    resultBytes: 1,
  });
  activity.recordMany([
    ...Array.from({ length: 20 }, (_, i) => call(`same${i}`, now - 5000)),
    ...Array.from({ length: 30 }, (_, i) => call(`later${i}`, now - 4000 + i)),
  ]);
  assert.equal(await activity.prune(30, 35, now), 15);
  const left = store.query<{ tool: string }>('SELECT tool FROM activity ORDER BY at, tool').map((r) => r.tool);
  assert.equal(left.length, 35);
  assert.equal(
    left.filter((tool) => tool.startsWith('same')).length,
    5,
    'the 15 dropped are all from the oldest millisecond',
  );
  assert.equal(left.filter((tool) => tool.startsWith('later')).length, 30);
  assert.equal(await activity.prune(30, 35, now), 0, 'at the cap: nothing more');
});
