import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ActivityLog } from '../../server/activity/activity-log.js';
import { shortId } from '../../server/activity/activity-id.js';
import * as table from '../../server/activity/activity-table.js';
import { EventLog, latestEvents } from '../../server/activity/event-log.js';
import { eventOp } from '../../server/store/write-op.js';
import { Store } from '../../server/store/store.js';
import { tempDir } from '../helpers/temp.js';

const DAY = 24 * 3600 * 1000;

async function withStore(run: (store: Store) => void | Promise<void>): Promise<void> {
  const temp = tempDir();
  const store = await Store.open({ dataDir: temp.dir, fsync: false });
  try {
    await run(store);
  } finally {
    await store.close();
    temp.cleanup();
  }
}

const call = (
  session: string,
  tool: string,
  status: 'ok' | 'error' | 'rejected' | 'suggested',
  at: number,
  latencyMs = 10,
) => ({
  session,
  power: 'p',
  tool,
  variant: 'direct',
  decision: 'allowed' as const,
  status,
  latencyMs,
  resultBytes: 1,
  at,
});

test('activity table: finished calls, counts, rated outcomes and short ids come from the rows the log wrote', async () => {
  await withStore(async (store) => {
    const log = new ActivityLog(store);
    const a = log.record(call('s1', 'read', 'ok', 1000));
    log.record(call('s2', 'read', 'error', 1500));
    log.record(call('s1', 'write', 'rejected', 2000));
    const d = log.record(call('s1', 'write', 'ok', 3000, 250));
    await log.rate(d.id, -1);

    assert.deepEqual(
      (await table.finishedCalls(store)).map((r) => [r.session, r.tool, r.status, r.at]),
      [
        ['s1', 'read', 'ok', 1000],
        ['s1', 'write', 'ok', 3000],
        ['s2', 'read', 'error', 1500],
      ],
    );
    assert.deepEqual(
      (await table.finishedCallsSince(store, 1500)).map((r) => r.at),
      [1500, 3000],
      'inclusive, by time, rejected calls left out',
    );
    assert.deepEqual([...(await table.callsPerTool(store))].sort(), [
      ['p:read', 2],
      ['p:write', 2],
    ]);
    assert.deepEqual(Object.fromEntries((await table.callsPerStatus(store)).map((r) => [r.status, r.n])), {
      ok: 2,
      error: 1,
      rejected: 1,
    });
    const outcomes = (await table.ratedOutcomes(store)).sort((x, y) => x.at - y.at);
    assert.deepEqual(
      outcomes.map((o) => [o.tool, o.status, o.latency_ms, o.rating]),
      [
        ['read', 'ok', 10, null],
        ['read', 'error', 10, null],
        ['write', 'ok', 250, -1],
      ],
    );
    // The statistics read the newest finished calls only: their memory does not grow with the table.
    assert.deepEqual(
      (await table.finishedCalls(store, 2)).map((r) => [r.session, r.at]),
      [
        ['s1', 3000],
        ['s2', 1500],
      ],
      'the newest two, by session then time',
    );
    assert.deepEqual(
      (await table.ratedOutcomes(store, 2)).map((o) => [o.at, o.rating]),
      [
        [1500, null],
        [3000, -1],
      ],
      'the newest two, oldest first',
    );
    assert.deepEqual(await table.idsMatching(store, a.id.slice(0, 24)), [a.id], 'the start of an id');
    assert.deepEqual(await table.idsMatching(store, shortId(a.id)), [a.id], 'the short id the CLI lists');
    assert.deepEqual(await table.idsMatching(store, '%'), [], 'a wildcard is matched as itself');
    assert.equal(await table.exists(store, a.id), true);
    assert.equal(await table.exists(store, 'nope'), false);
  });
});

test('activity table: filters narrow the rows, newest first, and the limit stays within 1..1000', async () => {
  await withStore(async (store) => {
    const log = new ActivityLog(store);
    for (let i = 0; i < 5; i++) log.record(call('s', i % 2 ? 'odd' : 'even', i === 4 ? 'error' : 'ok', 1000 + i));
    assert.deepEqual(
      (await log.query({ tool: 'even' })).map((r) => r.at),
      [1004, 1002, 1000],
    );
    assert.deepEqual(
      (await log.query({ status: 'error' })).map((r) => r.at),
      [1004],
    );
    assert.deepEqual(
      (await log.query({ since: 1001, until: 1003 })).map((r) => r.at),
      [1002, 1001],
    );
    assert.equal((await log.query({ limit: 0 })).length, 1, 'a limit below 1 reads one row');
    assert.deepEqual(table.filteredSql({ limit: 10_000 }).params, [table.MAX_LIMIT]);
  });
});

test('activity table: retention drops calls older than the age, then the oldest beyond the count, with their ratings', async () => {
  await withStore(async (store) => {
    const log = new ActivityLog(store);
    const now = 100 * DAY;
    const old = log.record(call('s', 't', 'ok', now - 40 * DAY));
    await log.rate(old.id, 1);
    const kept = [1, 2, 3].map((i) => log.record(call('s', 't', 'ok', now - i * 1000)));
    await log.rate(kept[0].id, -1);
    assert.deepEqual(
      await table.retentionCut(store, 30, 2, now),
      { before: { at: kept[1].at, id: kept[1].id }, dropped: 2 },
      'the cut is the first call the count keeps',
    );
    assert.deepEqual(
      await table.retentionCut(store, 30, 10, now),
      { before: { at: now - 30 * DAY, id: '' }, dropped: 1 },
      'under the count, the age alone cuts',
    );
    assert.equal(await table.retentionCut(store, 50, 10, now), undefined, 'nothing to drop');
    const before = log.version;
    assert.equal(await log.prune(30, 2, now), 2);
    assert.ok(log.version > before, 'pruning bumps the log version');
    assert.deepEqual(
      (await log.query({})).map((r) => r.id),
      [kept[0].id, kept[1].id],
    );
    assert.deepEqual(
      store.query('SELECT activity_id FROM activity_ratings'),
      [{ activity_id: kept[0].id }],
      'the pruned call took its rating along; a kept one keeps its own',
    );
    // A rating stored for a call while another process dropped it: the next pass deletes it.
    store.write(table.ratingOp('gone-meanwhile', 1, now));
    log.record(call('s', 't', 'ok', now));
    assert.equal(await log.prune(30, 2, now), 1);
    assert.deepEqual(store.query('SELECT activity_id FROM activity_ratings'), [{ activity_id: kept[0].id }]);
  });
});

test('activity table: retention cuts calls of one millisecond by id, and leaves a call without a time alone', async () => {
  await withStore(async (store) => {
    const log = new ActivityLog(store);
    const now = 100 * DAY;
    const same = [1, 2, 3, 4].map(() => log.record(call('s', 't', 'ok', now - 1000)));
    store.write({
      op: 'insert',
      table: 'activity',
      row: { id: 'no-time', session: 's', power: 'p', tool: 't', variant: 'direct', decision: 'allowed', status: 'ok' },
    });
    const byId = same.map((c) => c.id).sort();
    assert.equal(await log.prune(30, 3, now), 1, 'one call over the cap, though all four share their millisecond');
    assert.deepEqual((await table.idsMatching(store, '')).filter((id) => id !== 'no-time').sort(), byId.slice(1));
    assert.equal(await log.prune(30, 0, now), 3, 'a cap of 0 drops every call with a time');
    assert.deepEqual(await table.idsMatching(store, ''), ['no-time']);
  });
});

test('event log: events are kept in order and read back newest last, limited', async () => {
  await withStore(async (store) => {
    const events = new EventLog(store);
    events.record('power.active', 'fs', null);
    events.record('power.crashed', 'fs', 'exit code 1');
    store.write(eventOp('store-overflow', null, '3 store write(s) dropped', Date.now() + 10));
    const all = await latestEvents(store, 10);
    assert.deepEqual(
      all.map((e) => [e.kind, e.power, e.detail]),
      [
        ['power.active', 'fs', null],
        ['power.crashed', 'fs', 'exit code 1'],
        ['store-overflow', null, '3 store write(s) dropped'],
      ],
    );
    assert.deepEqual(
      (await events.latest(1)).map((e) => e.kind),
      ['store-overflow'],
    );
  });
});

test('activity table: the index by user holds only calls with a user, and a filter by user still searches it', async () => {
  await withStore(async (store) => {
    const log = new ActivityLog(store);
    log.attributeSession('s-ann', 'ann');
    log.record(call('s-ann', 'read', 'ok', 1000));
    log.record(call('s-none', 'read', 'ok', 1100));
    const [index] = store.query<{ sql: string }>(
      "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = 'activity_user'",
    );
    assert.match(index!.sql, /WHERE user_name IS NOT NULL/);
    const { sql, params } = table.filteredSql({ user: 'ann' });
    const plan = store.query<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, params).map((row) => row.detail);
    assert.ok(
      plan.some((detail) => /USING INDEX activity_user/.test(detail)),
      plan.join('; '),
    );
    assert.deepEqual(
      (await log.query({ user: 'ann' })).map((c) => c.session),
      ['s-ann'],
    );
  });
});
