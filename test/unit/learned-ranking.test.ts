import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ActivityLog } from '../../server/activity/activity-log.js';
import { availabilityFlags, workspaceContains } from '../../server/ranking/availability.js';
import { metricsBySource, replayMrr } from '../../server/ranking/history-metrics.js';
import { DEFAULT_WEIGHTS, rerank } from '../../server/ranking/learned-ranking.js';
import { RecommendationLog, type Recommendation } from '../../server/ranking/recommendations.js';
import { tuneWeights } from '../../server/ranking/tune-weights.js';
import { factorsOf, NEUTRAL, type UsageFactors } from '../../server/ranking/usage-group.js';
import { UsageStats } from '../../server/ranking/usage-stats.js';
import type { PowerDefinition } from '../../server/powers/types.js';
import { Store } from '../../server/store/store.js';
import { tempDir } from '../helpers/temp.js';

const DAY = 24 * 3600 * 1000;
const row = (status: string, latency: number, at: number, rating: number | null = null) => ({
  power: 'p',
  tool: 't',
  status,
  latency_ms: latency,
  at,
  rating,
});

test('factors: neutral with no history; success, recency-decayed popularity, latency and rating each move', () => {
  const now = 100 * DAY;
  const none = factorsOf([], now);
  assert.equal(none.success, 0.5);
  assert.equal(none.performance, 0.5);
  assert.equal(none.rating, 0.5);
  const good = factorsOf([row('ok', 100, now), row('ok', 100, now), row('ok', 100, now, 1)], now);
  const bad = factorsOf([row('error', 5000, now), row('error', 5000, now), row('ok', 5000, now, -1)], now);
  assert.ok(good.success > 0.7 && bad.success < 0.5);
  assert.ok(good.performance > 0.9 && bad.performance < 0.2);
  assert.ok(good.rating > 0.5 && bad.rating < 0.5);
  const recent = factorsOf([row('ok', 1, now)], now).popularity;
  const monthOld = factorsOf([row('ok', 1, now - 30 * DAY)], now).popularity;
  assert.ok(Math.abs(recent - 1 / 6) < 1e-9, 'one call today: 1 / (1 + 5)');
  assert.ok(Math.abs(monthOld - 0.5 / 5.5) < 1e-6, 'a call 30 days old counts half');
});

test('history re-ranks close candidates, never a clearly more relevant one', () => {
  const loved: UsageFactors = { success: 0.95, popularity: 0.9, performance: 0.95, rating: 0.9, calls: 50 };
  const candidates = [
    { name: 'a', relevance: 1 },
    { name: 'b', relevance: 0.95 },
    { name: 'c', relevance: 0.5 },
  ];
  const factors = (favourite: string) => (name: string) => (name === favourite ? loved : undefined);
  assert.deepEqual(
    rerank(candidates, factors('b'), DEFAULT_WEIGHTS).map((c) => c.name),
    ['b', 'a', 'c'],
    'a near tie goes to the proven one',
  );
  const withC = rerank(candidates, factors('c'), DEFAULT_WEIGHTS);
  assert.deepEqual(
    withC.map((c) => c.name),
    ['a', 'b', 'c'],
    'popularity never beats clearly better relevance',
  );
  assert.equal(withC[2].explanation.moved, false);
  assert.deepEqual(
    rerank(candidates, () => undefined, DEFAULT_WEIGHTS).map((c) => c.name),
    ['a', 'b', 'c'],
    'no history: relevance order',
  );
  const explained = rerank(candidates, factors('b'), DEFAULT_WEIGHTS)[0].explanation;
  assert.equal(explained.moved, true);
  assert.ok(Math.abs(Object.values(explained.contributions).reduce((x, y) => x + y, 0) - explained.final) < 1e-9);
});

test('usage stats come from the activity log in the store, ratings included', async () => {
  const { dir, cleanup } = tempDir();
  try {
    const store = await Store.open({ dataDir: dir, fsync: false });
    const log = new ActivityLog(store);
    const base = { session: 's', variant: 'direct', decision: 'allowed' as const, resultBytes: 10 };
    const first = log.record({ ...base, power: 'fast', tool: 'x', status: 'ok', latencyMs: 20 });
    log.record({ ...base, power: 'slow', tool: 'y', status: 'error', latencyMs: 4000 });
    await log.rate(first.id, 1);
    await assert.rejects(log.rate('nope', 1), /No activity 'nope'/);
    const stats = new UsageStats(log);
    await stats.refresh();
    const powers = stats.forPowers();
    assert.ok(powers.get('fast')!.success > powers.get('slow')!.success);
    assert.ok(powers.get('fast')!.performance > powers.get('slow')!.performance);
    assert.ok(powers.get('fast')!.rating > 0.5);
    assert.equal(stats.forTools().get('slow:y')!.calls, 1);
    assert.equal(
      (await log.recent(5)).find((row) => row.id === first.id)?.rating,
      1,
      'the rating is joined onto its row',
    ); // both calls may share a millisecond
    store.close();
  } finally {
    cleanup();
  }
});

test('recommendations: the next use in the session is credited at its rank; metrics follow', async () => {
  const { dir, cleanup } = tempDir();
  try {
    const store = await Store.open({ dataDir: dir, fsync: false });
    const log = new RecommendationLog(store);
    const candidates = ['fs', 'memory', 'web'].map((name, i) => ({ name, relevance: 1 - i * 0.1, factors: NEUTRAL }));
    log.record({ session: 's1', source: 'resolve_intent', query: 'q1', candidates });
    log.record({ session: 's2', source: 'resolve_intent', query: 'q2', candidates });
    // Asked together, as two calls of a session: the second reads the log after the first credited it.
    const [first, second] = await Promise.all([
      log.markUsed('s1', 'memory:search_nodes'),
      log.markUsed('s1', 'memory'),
    ]);
    assert.equal(first?.usedRank, 1, 'a tool of the second candidate');
    assert.equal(second, undefined, 'already credited');
    assert.equal((await log.markUsed('s2', 'fs'))?.usedRank, 0);
    assert.equal(await log.markUsed('s3', 'fs'), undefined, 'another session');
    assert.deepEqual(
      ['s1', 's2', 's3'].map((s) => log.knows(s)),
      [true, true, false],
      'only sessions it recorded a recommendation for can follow one',
    );
    const metrics = metricsBySource(await log.sums()).all;
    assert.equal(metrics.recommendations, 2);
    assert.deepEqual(
      (await log.followed()).map((r) => r.used),
      ['memory:search_nodes', 'fs'],
    );
    assert.equal(metrics.followed, 2);
    assert.equal(metrics.mrr, 0.75);
    assert.equal(metrics.precisionAt1, 0.5);
    assert.equal(metrics.precisionAt3, 1);
    store.close();
  } finally {
    cleanup();
  }
});

test('weight tuning learns from history, keeps the weights normalised and relevance in charge', () => {
  const reliable: UsageFactors = { success: 0.95, popularity: 0.1, performance: 0.5, rating: 0.5, calls: 20 };
  const flaky: UsageFactors = { success: 0.2, popularity: 0.9, performance: 0.5, rating: 0.5, calls: 20 };
  // The agent keeps choosing the reliable one even when the popular, flaky one is marginally more relevant.
  const history: Recommendation[] = Array.from({ length: 30 }, (_, i) => ({
    id: String(i),
    at: i,
    session: 's',
    source: 'resolve_intent',
    query: 'q',
    candidates: [
      { name: 'flaky', relevance: 1, factors: flaky },
      { name: 'reliable', relevance: 0.97, factors: reliable },
    ],
    used: 'reliable',
    usedRank: 1,
  }));
  const result = tuneWeights(history);
  assert.equal(result.tuned, true);
  assert.ok(result.mrrAfter >= result.mrrBefore);
  const sum = Object.values(result.weights).reduce((a, b) => a + b, 0);
  assert.ok(Math.abs(sum - 1) < 1e-9, `weights sum to ${sum}`);
  assert.ok(result.weights.relevance >= 0.3);
  assert.ok(Object.values(result.weights).every((w) => w >= 0.05 - 1e-9));
  assert.equal(replayMrr(history, result.weights), result.mrrAfter);
  assert.equal(tuneWeights(history.slice(0, 5)).tuned, false, 'too little history: no tuning');
});

test('availability: a missing command, an unset variable and an unmet when-condition are flagged with the reason', () => {
  const { dir, cleanup } = tempDir();
  try {
    fs.writeFileSync(path.join(dir, 'pyproject.toml'), '');
    const power = (command: string, problems: string[] = []): PowerDefinition => ({
      name: 'p',
      version: '1',
      description: '',
      keywords: [],
      steering: '',
      derivedFromTools: false,
      problems,
      serverHash: '',
      definitionHash: '',
      server: { transport: 'stdio', command, args: [], env: {} },
      source: { kind: 'spell', file: '/x/p.spell.yaml', readOnly: false },
    });
    assert.deepEqual(availabilityFlags(power(process.execPath), undefined, {}), []);
    assert.match(availabilityFlags(power('surely-not-a-command-xyz'), undefined, {})[0], /not found on PATH/);
    assert.deepEqual(availabilityFlags(power(process.execPath, ['environment variable X is not set']), undefined, {}), [
      'environment variable X is not set',
    ]);
    const when = { when: { workspace_contains: ['pyproject.toml'] } };
    assert.deepEqual(availabilityFlags(power(process.execPath), when, { workspaceFolder: dir }), []);
    assert.match(
      availabilityFlags(
        power(process.execPath),
        { when: { workspace_contains: ['Cargo.toml'] } },
        { workspaceFolder: dir },
      )[0],
      /no 'Cargo.toml'/,
    );
    assert.match(availabilityFlags(power(process.execPath), when, {})[0], /no workspace is open/);
    assert.ok(workspaceContains(dir, '*.toml'));
    assert.ok(!workspaceContains(dir, '*.lock'));
  } finally {
    cleanup();
  }
});
