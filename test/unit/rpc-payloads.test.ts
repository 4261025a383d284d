import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ActivityEntry, ActivityRow } from '../../server/activity/activity-log.js';
import type { ResolvedCandidate } from '../../server/gateway/resolution.js';
import type { TokenReport } from '../../server/intel/accounting/token-report.js';
import { DEFAULT_WEIGHTS } from '../../server/ranking/learned-ranking.js';
import type { Recommendation } from '../../server/ranking/recommendations.js';
import { activityFromEntry, activityFromRow, parseActivityFilterInfo, parseRating } from '../../server/rpc/activity-payloads.js';
import { parseHintsParams } from '../../server/rpc/hints-payloads.js';
import { parseAvailability } from '../../server/rpc/language-model-bridge.js';
import { recommendationStats, scoreExplanation, tuneResult } from '../../server/rpc/ranking-payloads.js';
import { tokenReportInfo } from '../../server/rpc/token-payloads.js';

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
  user_name: null,
  rating: -1,
};

test('an activity row becomes the protocol shape: camelCase, nulls left out, audit and rating as values', () => {
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
    rating: -1,
  });
  const plain = activityFromRow({ ...row, audit: null, rating: null, operation_type: null, reason: null, error: null, decision_reason: null });
  assert.equal(plain.audit, false);
  assert.equal(plain.rating, 0);
  assert.ok(!('operationType' in plain) && !('reason' in plain) && !('error' in plain) && !('decisionReason' in plain));
});

test('a live entry and the stored row of the same call give the same payload', () => {
  const entry: ActivityEntry = {
    id: 'a1',
    at: row.at,
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
    latencyMs: 40.6,
    resultBytes: 120,
    audit: true,
  };
  assert.deepEqual(activityFromEntry(entry), { ...activityFromRow(row), rating: 0 });
});

test('the activity filter is checked: known intent types and statuses, strings, non-negative numbers', () => {
  assert.deepEqual(parseActivityFilterInfo(undefined), {});
  assert.deepEqual(parseActivityFilterInfo({ intentType: 'write', status: 'ok', power: 'memory', tool: '', since: 5, limit: 10 }), { intentType: 'write', status: 'ok', power: 'memory', since: 5, limit: 10 });
  assert.throws(() => parseActivityFilterInfo({ intentType: 'delete' }), /intentType must be one of read, write, destructive; got 'delete'/);
  assert.throws(() => parseActivityFilterInfo({ status: 'fine' }), /status must be one of/);
  assert.throws(() => parseActivityFilterInfo({ power: 3 }), /power must be a string/);
  assert.throws(() => parseActivityFilterInfo({ limit: -1 }), /limit must be a non-negative number/);
  assert.throws(() => parseActivityFilterInfo([]), /must be an object/);
  assert.equal(parseRating(-1), -1);
  assert.throws(() => parseRating(2), /rating must be 1 \(thumbs up\), -1 \(thumbs down\) or 0/);
});

const history = (ranks: Array<number | undefined>, source: Recommendation['source'] = 'resolve_intent'): Recommendation[] =>
  ranks.map((rank, i) => ({ id: String(i), at: i, session: 's', source, query: 'q', candidates: [], ...(rank === undefined ? {} : { used: 'x', usedRank: rank }) }));

test('recommendation stats: MRR and precision@k per source, the weights in use and the defaults', () => {
  const stats = recommendationStats([...history([0, 1, undefined]), ...history([2], 'retrieve_tools')], { ...DEFAULT_WEIGHTS, relevance: 0.4, popularity: 0.1 }, true);
  assert.deepEqual(stats.resolveIntent, { recommendations: 3, followed: 2, mrr: 0.75, precisionAt1: 0.5, precisionAt3: 1 });
  assert.deepEqual(stats.retrieveTools, { recommendations: 1, followed: 1, mrr: 0.333, precisionAt1: 0, precisionAt3: 1 });
  assert.equal(stats.all.followed, 3);
  assert.equal(stats.weights.relevance, 0.4);
  assert.deepEqual(stats.defaultWeights, DEFAULT_WEIGHTS);
  assert.equal(stats.minSamples, 20);
  const empty = recommendationStats([], DEFAULT_WEIGHTS, false);
  assert.deepEqual(empty.all, { recommendations: 0, followed: 0, mrr: null, precisionAt1: null, precisionAt3: null });
  const tuned = tuneResult({ weights: DEFAULT_WEIGHTS, samples: 3, mrrBefore: 0.51234, mrrAfter: 0.51234, tuned: false, reason: 'needs 20' }, empty);
  assert.deepEqual([tuned.mrrBefore, tuned.reason, tuned.stats], [0.512, 'needs 20', empty]);
});

test('"why this power": the explanation typed and rounded; none without explain', () => {
  const candidate: ResolvedCandidate = {
    name: 'memory',
    score: 3.14159,
    relevance: 1,
    confidence: 0.8,
    matchType: 'keyword',
    matchedTerms: ['remember'],
    normalized: 0.71234,
    coverage: 0.5,
    flags: [],
    explanation: {
      relevance: 1,
      factors: { success: 0.9, popularity: 0.12345, performance: 0.8, rating: 0.5, calls: 7 },
      contributions: { relevance: 0.35, success: 0.225, popularity: 0.0185175, performance: 0.12, rating: 0.05 },
      final: 0.7635175,
      moved: false,
    },
  };
  assert.deepEqual(scoreExplanation(candidate), {
    lexicalScore: 3.142,
    strength: 0.712,
    coverage: 0.5,
    relativeRelevance: 1,
    factors: { success: 0.9, popularity: 0.123, performance: 0.8, rating: 0.5, calls: 7 },
    contributions: { relevance: 0.35, success: 0.225, popularity: 0.019, performance: 0.12, rating: 0.05 },
    finalScore: 0.764,
    movedByHistory: false,
  });
  assert.equal(scoreExplanation({ ...candidate, explanation: undefined }), undefined);
});

test('the token report keeps every figure, in camelCase', () => {
  const totals = { results: 2, raw_tokens: 1000, delivered_tokens: 100, saved_tokens: 900, reduction: 0.9 };
  const report: TokenReport = {
    tokenizer: 'o200k_base',
    summarized: totals,
    by_day: [{ day: '2026-11-22', ...totals }],
    by_power: [{ power: 'filesystem', ...totals }],
    by_summarizer: { local: 2 },
    cache: { hits: 1, misses: 3, similar: 0, hit_rate: 0.25 },
    not_stored: 0,
    artifacts: { count: 2, bytes: 4096, max_bytes: 1 << 20, ttl_minutes: 180 },
    tools_list: { gateway: { tools: 11, tokens: 2000 }, all_powers: { powers: 3, tools: 36, tokens: 9000 }, saved_tokens: 7000, reduction: 0.778 },
    sessions: {
      rows: [
        {
          session: 's1',
          started_at: 1,
          last_at: 2,
          gateway: { tools_lists: 2, tools_list_tokens: 5000, answers: 1, answer_tokens: 300, results: 1, result_tokens: 100, tokens: 5400 },
          direct: { tools_list_tokens: 9000, result_tokens: 1000, tokens: 10000 },
          saved_tokens: 4600,
        },
      ],
      totals: { gateway_tokens: 5400, direct_tokens: 10000, saved_tokens: 4600, reduction: 0.46 },
    },
  };
  const camel = { results: 2, rawTokens: 1000, deliveredTokens: 100, savedTokens: 900, reduction: 0.9 };
  assert.deepEqual(tokenReportInfo(report), {
    tokenizer: 'o200k_base',
    summarized: camel,
    byDay: [{ day: '2026-11-22', ...camel }],
    byPower: [{ power: 'filesystem', ...camel }],
    bySummarizer: { local: 2 },
    cache: { hits: 1, misses: 3, similar: 0, hitRate: 0.25 },
    notStored: 0,
    artifacts: { count: 2, bytes: 4096, maxBytes: 1 << 20, ttlMinutes: 180 },
    toolsList: { gateway: { tools: 11, tokens: 2000 }, allPowers: { powers: 3, tools: 36, tokens: 9000 }, savedTokens: 7000, reduction: 0.778 },
    sessions: {
      rows: [
        {
          session: 's1',
          startedAt: 1,
          lastAt: 2,
          gateway: { toolsLists: 2, toolsListTokens: 5000, answers: 1, answerTokens: 300, results: 1, resultTokens: 100, tokens: 5400 },
          direct: { toolsListTokens: 9000, resultTokens: 1000, tokens: 10000 },
          savedTokens: 4600,
        },
      ],
      totals: { gatewayTokens: 5400, directTokens: 10000, savedTokens: 4600, reduction: 0.46 },
    },
  });
});

test('hints params and language model availability are checked', () => {
  assert.deepEqual(parseHintsParams(undefined), { scope: 'active', recent: 30 });
  assert.deepEqual(parseHintsParams({ scope: 'all', recent: 5000 }), { scope: 'all', recent: 500 });
  assert.throws(() => parseHintsParams({ scope: 'some' }), /scope must be 'active' or 'all'/);
  assert.throws(() => parseHintsParams({ recent: 1.5 }), /recent must be a whole number/);
  assert.deepEqual(parseAvailability({ available: true, models: ['copilot/gpt-4o-mini', 3] }), { available: true, models: ['copilot/gpt-4o-mini'] });
  assert.deepEqual(parseAvailability('yes'), { available: false, models: [] });
});
