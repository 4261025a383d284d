import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ActivityInfo, RecommendationStats, ScoreExplanation } from '../../protocol/records.js';
import { activityRows, powerOptions } from '../../webview/activity-model.js';
import {
  canTune,
  contributionSegments,
  historyFacts,
  metricCards,
  orderSentence,
  relevanceFacts,
  tuneMessage,
  tuneReadiness,
  weightBars,
} from '../../webview/quality-model.js';

const weights = { relevance: 0.35, success: 0.25, popularity: 0.15, performance: 0.15, rating: 0.1 };
const stats: RecommendationStats = {
  all: { recommendations: 10, followed: 8, mrr: 0.8125, precisionAt1: 0.75, precisionAt3: 1 },
  resolveIntent: { recommendations: 10, followed: 8, mrr: 0.8125, precisionAt1: 0.75, precisionAt3: 1 },
  retrieveTools: { recommendations: 0, followed: 0, mrr: null, precisionAt1: null, precisionAt3: null },
  weights: { ...weights, relevance: 0.4, popularity: 0.1 },
  defaultWeights: weights,
  minSamples: 20,
  learning: true,
};

test('recommendation quality in cards, weights against their defaults, and whether tuning can run', () => {
  assert.deepEqual(
    metricCards(stats.all).map((c) => [c.label, c.value]),
    [
      ['MRR', '0.813'],
      ['Precision@1', '75%'],
      ['Precision@3', '100%'],
      ['Followed', '8'],
    ],
  );
  assert.deepEqual(
    metricCards(stats.retrieveTools).map((c) => c.value),
    ['–', '–', '–', '0'],
  );
  const bars = weightBars(stats);
  assert.deepEqual(
    bars.map((b) => [b.factor, b.percent, b.changed]),
    [
      ['relevance', 40, true],
      ['success', 25, false],
      ['popularity', 10, true],
      ['performance', 15, false],
      ['rating', 10, false],
    ],
  );
  assert.equal(tuneReadiness(stats), 'Tuning needs 20 followed recommendations; 8 so far.');
  assert.equal(
    tuneReadiness({ ...stats, all: { ...stats.all, followed: 25 } }),
    '25 followed recommendations: enough to tune the weights.',
  );
  assert.match(tuneReadiness({ ...stats, learning: false }), /Learned ranking is off/);
  assert.equal(canTune(stats), false, '8 of 20');
  assert.equal(canTune({ ...stats, all: { ...stats.all, followed: 25 } }), true);
  assert.equal(canTune({ ...stats, all: { ...stats.all, followed: 25 }, learning: false }), false);
  assert.equal(
    tuneMessage({ tuned: true, samples: 25, mrrBefore: 0.7, mrrAfter: 0.75, weights, stats }),
    'Tuned on 25 followed recommendations: MRR 0.7 → 0.75; the new weights are saved.',
  );
  assert.match(
    tuneMessage({ tuned: true, samples: 25, mrrBefore: 0.7, mrrAfter: 0.7, weights, stats }),
    /already the best found/,
  );
  assert.equal(
    tuneMessage({
      tuned: false,
      samples: 2,
      mrrBefore: 0,
      mrrAfter: 0,
      weights,
      reason: 'needs 20 followed recommendations, has 2',
      stats,
    }),
    'Weights unchanged: needs 20 followed recommendations, has 2.',
  );
});

test("'why this power': each factor's share of the final score, what matched, what history says", () => {
  const explanation: ScoreExplanation = {
    lexicalScore: 2.5,
    coverage: 0.5,
    semantic: 0.61,
    relativeRelevance: 0.9,
    factors: { success: 0.5, popularity: 0, performance: 0.5, rating: 0.5, calls: 0 },
    contributions: { relevance: 0.315, success: 0.125, popularity: 0, performance: 0.075, rating: 0.05 },
    finalScore: 0.565,
    movedByHistory: false,
  };
  const segments = contributionSegments(explanation);
  assert.deepEqual(
    segments.map((s) => [s.factor, s.percent]),
    [
      ['relevance', 55.8],
      ['success', 22.1],
      ['popularity', 0],
      ['performance', 13.3],
      ['rating', 8.8],
    ],
  );
  assert.deepEqual(relevanceFacts(explanation, 'description', ['graph']), [
    'Your words "graph" match its description.',
    'It matches 50% of what the telling words of your request weigh.',
    'Similar in meaning: 61%.',
    '90% as relevant as the most relevant power.',
  ]);
  // The case: strength 63%, coverage 0%, in plain words.
  assert.deepEqual(
    relevanceFacts(
      { ...explanation, strength: 0.63, coverage: 0, semantic: undefined, relativeRelevance: 1 },
      'keyword',
      ['knowledge'],
    ),
    [
      'Your words "knowledge" match its keywords.',
      'It is a fair match (63% of the best this request could reach).',
      'It matches none of the rarer, more telling words of your request.',
      'Compared by words only (semantic matching is off).',
      'The most relevant power for this request.',
    ],
  );
  assert.match(orderSentence(explanation), /^Placed by how well it matches your request/);
  assert.match(orderSentence({ ...explanation, movedByHistory: true }), /its history moved it here/);
  assert.deepEqual(historyFacts(explanation), ['no calls yet: history is neutral']);
  assert.deepEqual(
    historyFacts({
      ...explanation,
      movedByHistory: true,
      factors: { ...explanation.factors, calls: 1, success: 1 },
    }).slice(0, 2),
    ['1 call', 'success 100%'],
  );
  assert.equal(
    contributionSegments({
      ...explanation,
      contributions: { relevance: 0, success: 0, popularity: 0, performance: 0, rating: 0 },
    })[0].percent,
    0,
  );
});

test('activity rows: tone by status and decision, audit kept, the power filter offers known and seen powers', () => {
  const base: ActivityInfo = {
    id: 'a',
    at: Date.now(),
    session: 's',
    power: 'memory',
    tool: 't',
    variant: 'write',
    operationType: 'write',
    decision: 'warned',
    decisionReason: 'reads only',
    status: 'ok',
    latencyMs: 3,
    resultBytes: 2048,
    audit: true,
    rating: 1,
  };
  const [row] = activityRows([base]);
  assert.deepEqual(
    [row.tone, row.intent, row.statusText, row.latency, row.audit, row.rating],
    ['warn', 'write', 'ok', '3 ms', true, 1],
  );
  assert.match(row.detail, /Decision: warned: reads only\nResult: 2\.0 KB\nAudit: flagged/);
  assert.deepEqual(
    activityRows([
      { ...base, status: 'suggested' },
      { ...base, status: 'rejected' },
    ]).map((r) => r.tone),
    ['idle', 'error'],
  );
  assert.deepEqual(powerOptions(['memory', 'filesystem'], [{ ...base, power: 'gone' }], 'picked'), [
    'filesystem',
    'gone',
    'memory',
    'picked',
  ]);
});
