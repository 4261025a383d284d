import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  filterText,
  intentText,
  isFiltered,
  latencyText,
  matchesFilter,
  toggledRating,
  withRating,
  withRecorded,
} from '../../protocol/activity-shared.js';
import type { ActivityInfo } from '../../protocol/records.js';

const call = (id: string, overrides: Partial<ActivityInfo> = {}): ActivityInfo => ({
  id,
  at: 1000,
  session: 's',
  power: 'memory',
  tool: 'read_graph',
  variant: 'read',
  operationType: 'read',
  decision: 'allowed',
  status: 'ok',
  latencyMs: 5,
  resultBytes: 10,
  audit: false,
  rating: 0,
  ...overrides,
});

test('a live call matches a filter the way the server query does (direct calls have no intent type)', () => {
  assert.ok(matchesFilter(call('a'), {}));
  assert.ok(
    matchesFilter(call('a'), {
      intentType: 'read',
      status: 'ok',
      power: 'memory',
      tool: 'read_graph',
      since: 1000,
      until: 1001,
    }),
  );
  assert.ok(!matchesFilter(call('a', { variant: 'direct', operationType: undefined }), { intentType: 'read' }));
  assert.ok(!matchesFilter(call('a'), { status: 'error' }));
  assert.ok(!matchesFilter(call('a'), { power: 'filesystem' }));
  assert.ok(!matchesFilter(call('a'), { until: 1000 }), 'until is exclusive');
  assert.ok(!matchesFilter(call('a'), { since: 1001 }));
});

test('the live list: newest first, once, capped, only what the filter admits; ratings and toggles', () => {
  const list = [call('b', { at: 2000 }), call('a', { at: 1000 })];
  assert.deepEqual(
    withRecorded(list, call('c', { at: 3000 }), {}).map((c) => c.id),
    ['c', 'b', 'a'],
  );
  assert.equal(withRecorded(list, call('b', { at: 2000 }), {}), list, 'a call already listed is not added twice');
  assert.equal(withRecorded(list, call('c', { status: 'error' }), { status: 'ok' }), list);
  assert.deepEqual(
    withRecorded(list, call('c', { at: 3000 }), {}, 2).map((c) => c.id),
    ['c', 'b'],
  );
  assert.deepEqual(
    withRecorded(list, call('c', { at: 3000 }), { limit: 1 }).map((c) => c.id),
    ['c'],
    'the filter limit caps too',
  );
  assert.deepEqual(
    withRating(list, 'a', -1).map((c) => c.rating),
    [0, -1],
  );
  assert.deepEqual(
    [toggledRating(0, 1), toggledRating(1, 1), toggledRating(-1, 1), toggledRating(1, -1)],
    [1, 0, 1, -1],
  );
});

test('filters and calls in words', () => {
  assert.equal(filterText({}), '');
  assert.equal(isFiltered({ limit: 5 }), false);
  assert.equal(
    filterText({ intentType: 'destructive', status: 'error', power: 'github' }),
    'intent: destructive · status: error · power: github',
  );
  assert.equal(isFiltered({ since: 0 }), true);
  assert.equal(intentText(call('a', { variant: 'direct', operationType: undefined })), 'direct');
  assert.equal(intentText(call('a', { variant: 'read', operationType: 'write' })), 'read (declared write)');
  assert.equal(intentText(call('a')), 'read');
  assert.deepEqual([latencyText(12.4), latencyText(1500)], ['12 ms', '1.5 s']);
});
