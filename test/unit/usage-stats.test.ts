import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ActivityLog, type ActivityCall } from '../../server/activity/activity-log.js';
import { STATISTICS_WINDOW } from '../../server/activity/activity-table.js';
import { factorsOf, UsageGroup } from '../../server/ranking/usage-group.js';
import { MAX_APPLIED, RELOAD_MS, UsageStats } from '../../server/ranking/usage-stats.js';
import { Store } from '../../server/store/store.js';
import { tempStore } from '../helpers/temp-store.js';

const call = (tool: string, status: 'ok' | 'error', latencyMs = 10): ActivityCall => ({
  session: 's',
  power: 'p',
  tool,
  variant: 'read',
  decision: 'allowed',
  status,
  latencyMs,
  resultBytes: 1,
});

/** A log whose whole-table reads are counted. */
function countingReads(log: ActivityLog): { reads: () => number } {
  let reads = 0;
  const read = log.ratedOutcomes.bind(log);
  log.ratedOutcomes = () => {
    reads += 1;
    return read();
  };
  return { reads: () => reads };
}

test(
  "this process's calls and ratings count at once without reading the log again; " +
    "another process's within RELOAD_MS of a write",
  async (t) => {
    const { store, dataDir } = await tempStore(t);
    const other = await Store.open({ dataDir, fsync: false });
    t.after(() => other.close());
    const log = new ActivityLog(store);
    const counted = countingReads(log);
    let now = Date.parse('2026-11-24T10:00:05Z');
    const stats = new UsageStats(log, () => now);
    log.record(call('a', 'ok'));
    assert.equal(stats.forTools().get('p:a'), undefined, 'nothing before the first read is in');
    await stats.refresh();
    assert.equal(stats.forTools().get('p:a')!.calls, 1);
    assert.equal(counted.reads(), 1);

    const second = log.recordMany([call('a', 'error', 3000)])[0]!;
    now += 10;
    const a = stats.forTools().get('p:a')!;
    assert.equal(a.calls, 2, 'a call recorded a moment ago counts');
    assert.equal(a.success, (1 + 1) / (2 + 2));
    await log.rate(second.id, -1);
    now += 10;
    assert.equal(stats.forTools().get('p:a')!.rating, 1 / 3, 'a rating counts at once');
    assert.equal(counted.reads(), 1, 'from the rows read before');

    new ActivityLog(other).record(call('b', 'ok'));
    log.record(call('a', 'ok'));
    now += 10;
    assert.equal(
      stats.forTools().get('p:b'),
      undefined,
      "another process's call shows only once the log is read again",
    );
    now += RELOAD_MS;
    stats.forTools();
    await stats.refresh(); // the read that use started
    assert.equal(stats.forTools().get('p:b')!.calls, 1);
    assert.equal(stats.forTools().get('p:a')!.calls, 3);
    assert.equal(counted.reads(), 2);
  },
);

test('the log is read again each minute and after retention, and not while nothing is written', async (t) => {
  const { store } = await tempStore(t);
  const log = new ActivityLog(store);
  const counted = countingReads(log);
  let now = Date.parse('2026-11-24T10:00:05Z');
  const stats = new UsageStats(log, () => now);
  const at = (ago: number) => ({ at: now - ago });
  log.recordMany([
    { ...call('c', 'rejected' as 'ok'), ...at(4000) },
    { ...call('a', 'ok'), ...at(3000) },
    { ...call('a', 'ok'), ...at(2000) },
    { ...call('b', 'ok'), ...at(1000) },
  ]);
  stats.forPowers();
  await stats.refresh();
  assert.equal(stats.forPowers().get('p')!.calls, 3, 'finished calls only');
  now += RELOAD_MS * 10;
  stats.forPowers();
  assert.equal(counted.reads(), 1, 'nothing written: the rows read stay');
  now += 60_000;
  stats.forPowers();
  assert.equal(counted.reads(), 2, 'a new minute reads again');

  assert.equal(await log.prune(30, 1, now), 3);
  now += RELOAD_MS;
  stats.forPowers();
  await stats.refresh();
  assert.equal(counted.reads(), 3);
  assert.equal(stats.forPowers().get('p')!.calls, 1, "retention's deletes show once read again");
  assert.equal(stats.forTools().get('p:b')!.calls, 1, 'the newest call is the one kept');
});

test('a group kept up call by call and rating by rating has the factors of all its calls counted at once', () => {
  const now = Date.parse('2026-11-24T10:00:00Z');
  const rows = Array.from({ length: 301 }, (_, i) => ({
    power: 'p',
    tool: 't',
    status: i % 7 === 0 ? 'error' : 'ok',
    latency_ms: (i * 7919) % 1_000,
    at: now - i * 3_600_000,
    rating: i % 11 === 0 ? 1 : i % 13 === 0 ? -1 : null,
  }));
  const kept = UsageGroup.of(rows.slice(0, 100), now);
  for (const row of rows.slice(100)) kept.add({ ...row, rating: null });
  for (const row of rows.slice(100)) kept.rate(null, row.rating);
  kept.rate(null, 1);
  kept.rate(1, null);
  const whole = factorsOf(rows, now);
  const incremental = kept.factors();
  assert.equal(incremental.calls, 301);
  assert.deepEqual({ ...incremental, popularity: 0 }, { ...whole, popularity: 0 });
  assert.ok(Math.abs(incremental.popularity - whole.popularity) < 1e-12);
  assert.ok(whole.performance > 0.5 && whole.performance < 1 && whole.rating !== 0.5 && whole.success < 1);
});

test(
  'past MAX_APPLIED calls with no use, the rows read are dropped and the next use reads the log again: ' +
    'the same factors, bounded memory',
  async (t) => {
    const { store } = await tempStore(t);
    const log = new ActivityLog(store);
    const counted = countingReads(log);
    const now = Date.parse('2026-11-24T10:00:05Z');
    const stats = new UsageStats(log, () => now);
    log.record({ ...call('a', 'ok'), at: now });
    await stats.refresh();
    assert.equal(stats.forTools().get('p:a')!.calls, 1);
    const version = log.version;
    const calls = Array.from({ length: MAX_APPLIED + 1 }, () => ({ ...call('a', 'ok'), at: now }));
    log.recordMany(calls);
    Object.defineProperty(log, 'version', { get: () => version }); // no staleness: only the cap can drop the rows
    stats.forTools();
    await stats.refresh();
    assert.equal(
      stats.forTools().get('p:a')!.calls,
      Math.min(MAX_APPLIED + 2, STATISTICS_WINDOW),
      'every call of the newest STATISTICS_WINDOW counts',
    );
    assert.equal(counted.reads(), 2, 'read again once the rows applied passed the cap');
  },
);
