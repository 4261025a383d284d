import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { defaultSettings, withOverrides } from '../../server/config/settings.js';
import { CLOSE_RELEVANCE, DEFAULT_WEIGHTS, rerank } from '../../server/ranking/learned-ranking.js';
import { createResolver } from '../../server/resolve/create-resolver.js';
import type { PowerDocument } from '../../server/resolve/types.js';
import { Store } from '../../server/store/store.js';
import { guardNetwork, tinyModelPath } from '../fixtures/models/tiny-model.js';
import { tempDir } from '../helpers/temp.js';

const powers: PowerDocument[] = [
  {
    name: 'garage',
    description: 'Car listings and vehicle history.',
    keywords: ['car', 'vehicle', 'truck'],
    tools: [{ name: 'find_car', description: 'Search car listings' }],
  },
  {
    name: 'skies',
    description: 'Weather forecast and temperature.',
    keywords: ['weather', 'forecast', 'rain'],
    tools: [{ name: 'forecast', description: 'Rain and snow forecast' }],
  },
  {
    name: 'vault',
    description: 'Bitcoin wallet balances.',
    keywords: ['bitcoin', 'wallet', 'crypto'],
    tools: [{ name: 'balance', description: 'Wallet balance' }],
  },
];

async function withResolver(model: string, run: (r: ReturnType<typeof createResolver>, store: Store) => Promise<void>) {
  const { dir, cleanup } = tempDir();
  const requested = await guardNetwork();
  const store = await Store.open({ dataDir: dir, fsync: false });
  try {
    const settings = withOverrides(defaultSettings(), { resolve: { semantic: { model, allowRemoteModels: false } } });
    await run(createResolver(settings.resolve, store, dir), store);
    assert.deepEqual(requested, [], 'no network request');
  } finally {
    store.close();
    cleanup();
  }
}

test('with the model: hybrid status, semantic similarity per candidate, fused ranking, vectors stored once', async () => {
  await withResolver(tinyModelPath, async ({ resolver, embedder }, store) => {
    assert.equal(await embedder.ready(), true);
    resolver.index(powers);
    await resolver.ready();
    assert.equal(resolver.status().mode, 'hybrid');
    const ranked = await resolver.rank('automobile');
    assert.equal(ranked[0].name, 'garage');
    assert.ok(ranked[0].semantic! > ranked[1].semantic! && ranked[0].semantic! > 0.5, JSON.stringify(ranked));
    const stored = store.query<{ n: number }>('SELECT COUNT(*) AS n FROM embeddings')[0].n;
    assert.equal(stored, powers.length + powers.flatMap((p) => p.tools).length, 'one vector per power and per tool');
    resolver.index(powers);
    await resolver.ready();
    assert.equal(
      store.query<{ n: number }>('SELECT COUNT(*) AS n FROM embeddings')[0].n,
      stored,
      'unchanged texts are not embedded again',
    );
    const tools = await resolver.rankTools('will it snow');
    assert.equal(tools[0].name, 'skies:forecast');
  });
});

test('documents indexed while the model is still loading get their vectors once it is ready, with no second index', async () => {
  await withResolver(tinyModelPath, async ({ resolver, embedder }) => {
    embedder.warmUp();
    assert.equal(embedder.status().state, 'loading');
    resolver.index(powers);
    assert.equal(resolver.status().mode, 'lexical-only', 'nothing waits for the model: lexical until it is there');
    await resolver.ready();
    assert.equal(embedder.status().state, 'ready');
    assert.equal(resolver.status().mode, 'hybrid', JSON.stringify(resolver.status()));
    const ranked = await resolver.rank('automobile');
    assert.ok(ranked[0].semantic !== undefined, JSON.stringify(ranked));
  });
});

test('without the model: lexical-only, the status says why, ranking still works', async () => {
  await withResolver(path.join(tinyModelPath, 'missing'), async ({ resolver, embedder }) => {
    assert.equal(await embedder.ready(), false);
    resolver.index(powers);
    await resolver.ready();
    const status = resolver.status();
    assert.equal(status.mode, 'lexical-only');
    assert.match(status.detail, /lexical/);
    const ranked = await resolver.rank('rain forecast for tomorrow');
    assert.equal(ranked[0].name, 'skies');
    assert.equal(ranked[0].semantic, undefined);
  });
});

test('hybrid mode: one 0..1 relevance in the ranking order, and history re-ranking moves nothing without history', async () => {
  await withResolver(tinyModelPath, async ({ resolver, embedder }) => {
    assert.equal(await embedder.ready(), true);
    resolver.index(powers);
    await resolver.ready();
    assert.equal(resolver.status().mode, 'hybrid');
    for (const query of [
      'automobile',
      'will it rain tomorrow',
      'bitcoin wallet of my truck',
      'something else entirely',
    ]) {
      const ranked = await resolver.rank(query);
      assert.equal(ranked[0].relevance, 1, `${query}: the best has relevance 1`);
      for (let i = 1; i < ranked.length; i += 1) {
        assert.ok(
          ranked[i].relevance >= 0 && ranked[i].relevance <= ranked[i - 1].relevance,
          `${query}: relevance falls with the rank ${JSON.stringify(ranked)}`,
        );
      }
      const reranked = rerank(ranked, () => undefined, DEFAULT_WEIGHTS);
      assert.deepEqual(
        reranked.map((c) => c.name),
        ranked.map((c) => c.name),
        `${query}: no history, no move`,
      );
      assert.ok(
        reranked.every((c) => !c.explanation.moved),
        `${query}: nothing is "moved by history"`,
      );
      const tools = await resolver.rankTools(query);
      assert.deepEqual(
        rerank(tools, () => undefined, DEFAULT_WEIGHTS).map((c) => c.name),
        tools.map((c) => c.name),
        `${query}: tools neither`,
      );
    }
    const favourite = { success: 1, popularity: 0.9, performance: 1, rating: 1, calls: 40 };
    const ranked = await resolver.rank('the car and truck wallet in bitcoin');
    const close = ranked.find((c, i) => i > 0 && ranked[0].relevance - c.relevance <= CLOSE_RELEVANCE);
    assert.ok(close, `a runner-up within ${CLOSE_RELEVANCE} of the top: ${JSON.stringify(ranked)}`);
    const moved = rerank(ranked, (name) => (name === close.name ? favourite : undefined), DEFAULT_WEIGHTS);
    assert.equal(moved[0].name, close.name, 'a close runner-up with a strong history goes first');
    assert.equal(moved[0].explanation.moved, true);
  });
});
