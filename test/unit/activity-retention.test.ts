import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ActivityLog } from '../../server/activity/activity-log.js';
import { tempStore } from '../helpers/temp-store.js';

const DAY = 24 * 3600 * 1000;

test('retention drops rows past the age, then the oldest beyond the cap; under both it drops nothing', async (t) => {
  const { store } = await tempStore(t);
  const activity = new ActivityLog(store);
  const now = Date.UTC(2026, 0, 15);
  const call = (tool: string, at: number) => ({ at, session: 's', power: 'p', tool, variant: 'direct', decision: 'allowed' as const, status: 'ok' as const, latencyMs: 1, resultBytes: 1 });
  activity.recordMany([call('old1', now - 40 * DAY), call('old2', now - 31 * DAY), ...Array.from({ length: 8 }, (_, i) => call(`t${i}`, now - (8 - i) * 1000))]);
  assert.equal(activity.prune(30, 100, now), 2, 'only the two past 30 days');
  assert.equal(activity.prune(30, 8, now), 0, 'exactly at the cap');
  assert.equal(activity.prune(30, 5, now), 3);
  assert.deepEqual(
    store.query<{ tool: string }>('SELECT tool FROM activity ORDER BY at').map((r) => r.tool),
    ['t3', 't4', 't5', 't6', 't7'],
  );
});
