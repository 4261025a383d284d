import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ActivityLog } from '../../server/activity/activity-log.js';
import { activityFromRow, type ActivityRow } from '../../server/activity/activity-row.js';
import type { ActivityInfo, ActivityRated } from '../../protocol/records.js';
import { Store } from '../../server/store/store.js';
import { tempDir } from '../helpers/temp.js';

const row: ActivityRow = {
  id: 'a1',
  at: 1_700_000_000_000,
  session: 's',
  power: 'memory',
  tool: 'delete_entities',
  variant: 'destructive',
  operation_type: 'destructive',
  data_sensitivity: null,
  reason: 'clean up',
  decision: 'warned',
  decision_reason: 'strict validation is off',
  status: 'error',
  error: 'not found',
  latency_ms: 41,
  result_bytes: 120,
  audit: 1,
  user_name: 'ana',
  rating: -1,
};

test('a stored row is the one activity record: camelCase, nulls left out, audit and rating as values', () => {
  assert.deepEqual(activityFromRow(row), {
    id: 'a1',
    at: 1_700_000_000_000,
    session: 's',
    power: 'memory',
    tool: 'delete_entities',
    variant: 'destructive',
    operationType: 'destructive',
    reason: 'clean up',
    decision: 'warned',
    decisionReason: 'strict validation is off',
    status: 'error',
    error: 'not found',
    latencyMs: 41,
    resultBytes: 120,
    audit: true,
    user: 'ana',
    rating: -1,
  });
  const plain = activityFromRow({
    ...row,
    audit: null,
    rating: null,
    operation_type: null,
    reason: null,
    error: null,
    decision_reason: null,
    user_name: null,
  });
  assert.equal(plain.audit, false);
  assert.equal(plain.rating, 0);
  assert.ok(
    !('operationType' in plain) &&
      !('reason' in plain) &&
      !('error' in plain) &&
      !('decisionReason' in plain) &&
      !('user' in plain),
  );
});

test('the log hands out the same record live (recorded), as returned, and as queried; ratings as the protocol carries them', async () => {
  const { dir, cleanup } = tempDir();
  try {
    const store = await Store.open({ dataDir: dir, fsync: false });
    const log = new ActivityLog(store);
    log.attributeSession('s', 'ana');
    const live: ActivityInfo[] = [];
    const rated: ActivityRated[] = [];
    log.on('recorded', (entry) => live.push(entry));
    log.on('rated', (r) => rated.push(r));
    const returned = log.record({
      session: 's',
      power: 'memory',
      tool: 'delete_entities',
      variant: 'destructive',
      operationType: 'destructive',
      dataSensitivity: undefined,
      reason: 'clean up',
      decision: 'warned',
      decisionReason: 'strict validation is off',
      status: 'error',
      error: 'not found',
      latencyMs: 40.6,
      resultBytes: 120,
      audit: true,
    });
    assert.deepEqual(live, [returned]);
    assert.equal(returned.latencyMs, 41, 'rounded as stored');
    assert.ok(!('dataSensitivity' in returned), 'an undefined field is left out, as from the store');
    assert.deepEqual(await log.query({}), [returned], 'the stored call reads back as the very record announced live');
    await log.rate(returned.id, -1);
    assert.deepEqual(rated, [{ id: returned.id, rating: -1 }]);
    assert.deepEqual(await log.recent(1), [{ ...returned, rating: -1 }]);
    await store.close();
  } finally {
    cleanup();
  }
});
