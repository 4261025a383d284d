import { test } from 'node:test';
import assert from 'node:assert/strict';
import { activityId, shortId } from '../../server/activity/activity-id.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('activity ids are UUIDv7: the time first, so later calls sort after earlier ones', () => {
  const now = Date.UTC(2026, 10, 23, 20, 0, 0, 123);
  const id = activityId(now);
  assert.match(id, UUID_V7);
  assert.equal(parseInt(id.slice(0, 8) + id.slice(9, 13), 16), now, 'the first 48 bits are the time in ms');
  const times = [0, 1, 999, now - 1, now, now + 1, 2 ** 48 - 1];
  const ids = times.map(activityId);
  for (const one of ids) assert.match(one, UUID_V7);
  assert.deepEqual([...ids].sort(), ids, 'string order is time order');
});

test('short ids are the random end of the id, not the shared time prefix', () => {
  const now = Date.now();
  const ids = Array.from({ length: 100 }, () => activityId(now));
  assert.equal(new Set(ids.map((id) => id.slice(0, 8))).size, 1, 'one minute, one prefix');
  assert.equal(new Set(ids.map(shortId)).size, ids.length, 'short ids differ');
  for (const id of ids) assert.equal(shortId(id), id.slice(-8));
});
