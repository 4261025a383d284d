import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResolvedCandidate } from '../../server/gateway/resolution.js';
import { historySums, metricsBySource } from '../../server/ranking/history-metrics.js';
import { DEFAULT_WEIGHTS } from '../../server/ranking/learned-ranking.js';
import type { Recommendation } from '../../server/ranking/recommendations.js';
import { parseActivityFilterInfo, parseRating } from '../../server/rpc/activity-payloads.js';
import { parseHintsParams } from '../../server/rpc/hints-payloads.js';
import { parseAvailability } from '../../server/rpc/language-model-bridge.js';
import { recommendationStats, scoreExplanation, tuneResult } from '../../server/rpc/ranking-payloads.js';
import { powerInfo } from '../../server/rpc/payloads.js';
import { queryWordsFor } from '../../server/text/terms.js';
import type { PowerDefinition } from '../../server/powers/types.js';
import { Store } from '../../server/store/store.js';
import { ToolTrust } from '../../server/trust/tool-trust.js';
import { ToolPolicy } from '../../server/trust/tool-policy.js';
import { tempDir } from '../helpers/temp.js';

test('the activity filter is checked: known intent types and statuses, strings, non-negative numbers', () => {
  assert.deepEqual(parseActivityFilterInfo(undefined), {});
  assert.deepEqual(
    parseActivityFilterInfo({ intentType: 'write', status: 'ok', power: 'memory', tool: '', since: 5, limit: 10 }),
    { intentType: 'write', status: 'ok', power: 'memory', since: 5, limit: 10 },
  );
  assert.throws(
    () => parseActivityFilterInfo({ intentType: 'delete' }),
    /intentType must be one of read, write, destructive; got 'delete'/,
  );
  assert.throws(() => parseActivityFilterInfo({ status: 'fine' }), /status must be one of/);
  assert.throws(() => parseActivityFilterInfo({ power: 3 }), /power must be a string/);
  assert.throws(() => parseActivityFilterInfo({ limit: -1 }), /limit must be a non-negative number/);
  assert.throws(() => parseActivityFilterInfo([]), /must be an object/);
  assert.equal(parseRating(-1), -1);
  assert.throws(() => parseRating(2), /rating must be 1 \(thumbs up\), -1 \(thumbs down\) or 0/);
});

const history = (
  ranks: Array<number | undefined>,
  source: Recommendation['source'] = 'resolve_intent',
): Recommendation[] =>
  ranks.map((rank, i) => ({
    id: String(i),
    at: i,
    session: 's',
    source,
    query: 'q',
    candidates: [],
    ...(rank === undefined ? {} : { used: 'x', usedRank: rank }),
  }));

test('recommendation stats: MRR and precision@k per source, the weights in use and the defaults', () => {
  const stats = recommendationStats(
    metricsBySource({
      resolve_intent: historySums(history([0, 1, undefined])),
      retrieve_tools: historySums(history([2], 'retrieve_tools')),
    }),
    { ...DEFAULT_WEIGHTS, relevance: 0.4, popularity: 0.1 },
    true,
  );
  assert.deepEqual(stats.resolveIntent, {
    recommendations: 3,
    followed: 2,
    mrr: 0.75,
    precisionAt1: 0.5,
    precisionAt3: 1,
  });
  assert.deepEqual(stats.retrieveTools, {
    recommendations: 1,
    followed: 1,
    mrr: 0.333,
    precisionAt1: 0,
    precisionAt3: 1,
  });
  assert.equal(stats.all.followed, 3);
  assert.equal(stats.weights.relevance, 0.4);
  assert.deepEqual(stats.defaultWeights, DEFAULT_WEIGHTS);
  assert.equal(stats.minSamples, 20);
  const empty = recommendationStats(metricsBySource({}), DEFAULT_WEIGHTS, false);
  assert.deepEqual(empty.all, { recommendations: 0, followed: 0, mrr: null, precisionAt1: null, precisionAt3: null });
  const tuned = tuneResult(
    { weights: DEFAULT_WEIGHTS, samples: 3, mrrBefore: 0.51234, mrrAfter: 0.51234, tuned: false, reason: 'needs 20' },
    empty,
  );
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

test('hints params and language model availability are checked', () => {
  assert.deepEqual(parseHintsParams(undefined), { scope: 'active', recent: 30 });
  assert.deepEqual(parseHintsParams({ scope: 'all', recent: 5000 }), { scope: 'all', recent: 500 });
  assert.throws(() => parseHintsParams({ scope: 'some' }), /scope must be 'active' or 'all'/);
  assert.throws(() => parseHintsParams({ recent: 1.5 }), /recent must be a whole number/);
  assert.deepEqual(parseAvailability({ available: true, models: ['copilot/gpt-4o-mini', 3] }), {
    available: true,
    models: ['copilot/gpt-4o-mini'],
  });
  assert.deepEqual(parseAvailability('yes'), { available: false, models: [] });
});

test(
  "a power's tools are told apart: held for review (pending), blocked (kept blocked, " +
    'or by the settings), the rest available',
  async () => {
    const temp = tempDir();
    const store = await Store.open({ dataDir: temp.dir, fsync: false });
    const trust = new ToolTrust(store);
    try {
      const tool = (name: string, description = 'd') => ({
        name,
        description,
        inputSchema: { type: 'object' as const },
      });
      trust.check('fs', [tool('read'), tool('write'), tool('list')], 'allow');
      const now = [tool('read', 'changed'), tool('write', 'changed too'), tool('list'), tool('remove')];
      trust.check('fs', now, 'quarantine');
      trust.reject('fs', 'write');
      const definition = {
        name: 'fs',
        version: '1.0.0',
        description: 'Files.',
        keywords: ['file', 'folder', 'path'],
        steering: '',
        server: { transport: 'http' as const, url: 'https://x.example/mcp', headers: {} },
        source: { kind: 'spell' as const, file: '/s/fs.spell.yaml', readOnly: false },
        derivedFromTools: false,
        problems: [],
      } as unknown as PowerDefinition;
      const info = powerInfo(
        {
          manager: { statuses: () => [] },
          trust,
          policy: new ToolPolicy(() => ({ powers: { disabled: [] }, tools: { blocked: ['fs:remove'] } }), trust),
          toolsOf: () => now,
          isActive: () => true,
          launches: { waiting: () => undefined },
          sessions: { all: () => [] },
        },
        definition,
      );
      assert.deepEqual(info.awaitingReview, ['read'], 'pending only');
      assert.deepEqual(
        info.blocked,
        ['remove', 'write'],
        'kept blocked in the review, and blocked by the settings (over its pending review)',
      );
      assert.equal(info.tools.length, 4);
    } finally {
      trust.close();
      store.close();
      temp.cleanup();
    }
  },
);

test('matched words are shown as the user wrote them, not as stems', () => {
  assert.deepEqual(queryWordsFor('Remember facts in the knowledge graph', ['knowledg', 'fact']), [
    'facts',
    'knowledge',
  ]);
  assert.deepEqual(
    queryWordsFor('studies', ['studi', 'unknownstem']),
    ['studies', 'unknownstem'],
    'a term no word stems to stays as it is',
  );
});
