import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { setLogSink } from '../../server/log.js';
import { EmbeddingCache } from '../../server/text/embedding-cache.js';
import { Embedder, type EmbedderOptions } from '../../server/resolve/semantic/embedder.js';
import { Lru } from '../../server/util/lru.js';
import { cosine, fromBase64, toBase64 } from '../../server/text/vector.js';
import { shortHash } from '../../shared/hash.js';
import { Store } from '../../server/store/store.js';
import { copyTinyModel, guardNetwork, tinyModelOptions } from '../fixtures/models/tiny-model.js';
import { tempDir } from '../helpers/temp.js';

const temp = tempDir('grimoire-semantic-cache-');
let requested: string[] = [];
const stores: Store[] = [];

before(async () => {
  requested = await guardNetwork();
  setLogSink(() => undefined);
});
after(() => {
  for (const store of stores) store.close();
  setLogSink((line) => process.stderr.write(line + '\n'));
  temp.cleanup();
});

const options = (overrides: Partial<EmbedderOptions> = {}): EmbedderOptions => tinyModelOptions(temp.dir, overrides);

async function openStore(dataDir: string): Promise<Store> {
  const store = await Store.open({ dataDir, fsync: false });
  stores.push(store);
  return store;
}

async function readyEmbedder(overrides: Partial<EmbedderOptions> = {}): Promise<Embedder> {
  const embedder = new Embedder(options(overrides));
  assert.equal(await embedder.ready(), true);
  return embedder;
}

test('texts are embedded once; a changed text is embedded again, alone', async () => {
  const store = await openStore(path.join(temp.dir, 'once'));
  const embedder = await readyEmbedder();
  const cache = new EmbeddingCache(store, embedder);

  const first = (await cache.vectorsFor(['car', 'weather', 'file']))!;
  assert.equal(first.length, 3);
  assert.ok(first.every((v) => v?.length === 16));
  assert.deepEqual(cache.stats(), { embedded: 3, storeHits: 0, queryHits: 0 });

  const again = (await cache.vectorsFor(['car', 'weather', 'file']))!;
  assert.deepEqual(cache.stats(), { embedded: 3, storeHits: 3, queryHits: 0 }, 'nothing new embedded');
  assert.deepEqual(again, first, 'the stored vectors are the embedded ones, bit for bit');

  const changed = (await cache.vectorsFor(['car', 'weather', 'folder']))!;
  assert.deepEqual(cache.stats(), { embedded: 4, storeHits: 5, queryHits: 0 }, 'only the changed text');
  assert.ok(cosine(changed[2]!, first[2]!) > 0.9, 'folder is near file in the tiny model');

  await cache.vectorsFor(['rain', 'rain']);
  assert.equal(cache.stats().embedded, 5, 'a text repeated in one call is embedded once');

  const rows = store.query<{ key: string; model: string; dim: number; vector: string }>(
    'SELECT key, model, dim, vector FROM embeddings',
  );
  assert.equal(rows.length, 5);
  const car = rows.find((row) => row.key === shortHash(`${embedder.modelKey}\0car`, 64))!;
  assert.ok(car, 'keyed by sha256(modelKey \\0 text)');
  assert.equal(car.model, embedder.modelKey);
  assert.equal(car.dim, 16);
  assert.deepEqual(fromBase64(car.vector), first[0]);
});

test('vectors survive a store reopen, and are keyed by model', async () => {
  const dataDir = path.join(temp.dir, 'reopen');
  const embedder = await readyEmbedder();
  const texts = ['github pull request', 'bitcoin wallet', 'weather forecast'];
  const store = await openStore(dataDir);
  const before = (await new EmbeddingCache(store, embedder).vectorsFor(texts))!;
  store.close();

  const reopened = await openStore(dataDir);
  const cache = new EmbeddingCache(reopened, embedder);
  assert.deepEqual(await cache.vectorsFor(texts), before);
  assert.deepEqual(cache.stats(), { embedded: 0, storeHits: 3, queryHits: 0 });

  // Stored vectors are usable while a new embedder of the same model is still loading.
  const loadingEmbedder = new Embedder(options());
  const loading = new EmbeddingCache(reopened, loadingEmbedder);
  assert.deepEqual(await loading.vectorsFor(texts), before);
  const partly = (await loading.vectorsFor([...texts, 'a text never embedded']))!;
  assert.deepEqual(partly.slice(0, 3), before);
  assert.equal(partly[3], undefined, 'not stored and the model is not ready yet');
  assert.equal(loadingEmbedder.status().state, 'loading', 'asking started the load');
  assert.ok(await loadingEmbedder.ready());

  const otherModel = await readyEmbedder({ model: copyTinyModel(path.join(temp.dir, 'other-model')) });
  const other = new EmbeddingCache(reopened, otherModel);
  await other.vectorsFor(texts);
  assert.deepEqual(other.stats(), { embedded: 3, storeHits: 0, queryHits: 0 }, 'another model embeds its own');
});

test('query vectors are cached in memory', async () => {
  const store = await openStore(path.join(temp.dir, 'query'));
  const embedder = await readyEmbedder();
  const cache = new EmbeddingCache(store, embedder);
  const first = await cache.queryVector('how is the weather tomorrow');
  assert.equal(first?.length, 16);
  assert.deepEqual(cache.stats(), { embedded: 1, storeHits: 0, queryHits: 0 });
  assert.equal(await cache.queryVector('how is the weather tomorrow'), first);
  assert.deepEqual(cache.stats(), { embedded: 1, storeHits: 0, queryHits: 1 });
  assert.deepEqual(store.query('SELECT key FROM embeddings'), [], 'queries are not persisted');
});

test('off or unavailable: no vectors, and the store is left alone', async () => {
  const store = await openStore(path.join(temp.dir, 'fallback'));
  const off = new EmbeddingCache(store, new Embedder(options({ enabled: false })));
  assert.equal(await off.vectorsFor(['car']), undefined);
  assert.equal(await off.queryVector('car'), undefined);

  const missing = new Embedder(options({ model: 'Xenova/all-MiniLM-L6-v2' }));
  assert.equal(await missing.ready(), false);
  const unavailable = new EmbeddingCache(store, missing);
  assert.equal(await unavailable.vectorsFor(['car']), undefined);
  assert.equal(await unavailable.queryVector('car'), undefined);

  const idleEmbedder = new Embedder(options());
  const idle = new EmbeddingCache(store, idleEmbedder);
  assert.equal(await idle.queryVector('car'), undefined, 'not ready yet');
  assert.deepEqual(
    [off.stats(), unavailable.stats(), idle.stats()].map((s) => s.embedded),
    [0, 0, 0],
  );
  assert.deepEqual(store.query('SELECT key FROM embeddings'), []);
  assert.ok(await idleEmbedder.ready(), 'the query started the load');
  assert.equal((await idle.queryVector('car'))?.length, 16);
});

test('vector helpers: base64 round trip, cosine, LRU eviction', () => {
  const vector = new Float32Array([0.5, -1.25, 3e-8, 7]);
  assert.deepEqual(fromBase64(toBase64(vector)), vector);
  assert.deepEqual(
    fromBase64(toBase64(vector.subarray(1, 3))),
    new Float32Array([-1.25, 3e-8]),
    'views encode only their bytes',
  );
  assert.equal(fromBase64('AAE='), undefined, 'not a whole float32');
  assert.ok(Math.abs(cosine(new Float32Array([1, 0]), new Float32Array([2, 0])) - 1) < 1e-12);
  assert.equal(cosine(new Float32Array([1, 0]), new Float32Array([0, 3])), 0);
  assert.equal(cosine(new Float32Array([0, 0]), new Float32Array([1, 0])), 0, 'zero vector');
  assert.equal(cosine(new Float32Array([1]), new Float32Array([1, 0])), 0, 'length mismatch');

  const lru = new Lru<string, number>(2);
  lru.set('a', 1);
  lru.set('b', 2);
  assert.equal(lru.get('a'), 1, 'refreshes a');
  lru.set('c', 3);
  assert.deepEqual([lru.get('a'), lru.get('b'), lru.get('c'), lru.size], [1, undefined, 3, 2]);
});

test('no test asked the network for anything', () => {
  assert.deepEqual(requested, []);
});
