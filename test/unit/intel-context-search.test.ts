import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CreateMessageResult } from '../../server/util/mcp-types.js';
import type { SampleFn } from '../../server/calls/pipeline.js';
import { countTokens } from '../../server/intel/tokens/tokenizer-core.js';
import { handleIntelTool } from '../../server/intel/tools/intel-tool-handlers.js';
import { setLogSink } from '../../server/log.js';
import { Embedder } from '../../server/resolve/semantic/embedder.js';
import { EmbeddingCache } from '../../server/text/embedding-cache.js';
import { Store } from '../../server/store/store.js';
import { guardNetwork, tinyModelOptions } from '../fixtures/models/tiny-model.js';
import { tempDir } from '../helpers/temp.js';
import { allText, bigText, context, harness, metaOf, stageRunner, summaryOf, textResult } from './intel-helpers.js';

let requested: string[] = [];
before(async () => {
  requested = await guardNetwork();
  setLogSink(() => undefined);
});
after(() => {
  setLogSink((line) => process.stderr.write(line + '\n'));
  assert.deepEqual(requested, [], 'nothing was downloaded');
});

/** A ready tiny embedding model over the harness's own store. */
async function tinyEmbeddings(store: Store, dir: string): Promise<EmbeddingCache> {
  const embedder = new Embedder(tinyModelOptions(dir));
  assert.equal(await embedder.ready(), true, 'the tiny model loads');
  return new EmbeddingCache(store, embedder);
}

async function withTinyModel(
  settings: Record<string, unknown>,
  body: (h: Awaited<ReturnType<typeof harness>>) => Promise<void>,
): Promise<void> {
  const temp = tempDir('grimoire-intel-model-');
  const store = await Store.open({ dataDir: temp.dir, fsync: false });
  const embeddings = await tinyEmbeddings(store, temp.dir);
  const h = await harness(settings, { embeddings });
  try {
    await body(h);
  } finally {
    await h.close();
    store.close();
    temp.cleanup();
  }
}

const vehicles = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => `The truck drives the vehicle and the car: driving truck ${i % 3 ? 'car' : 'vehicle'} drive.`,
  ).join('\n');
const weather = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => `The forecast says rain and snow; the temperature and climate ${i % 2 ? 'weather' : 'forecast'} rain.`,
  ).join('\n');

test('get_artifact_context stays within the token budget, summaries first, then raw excerpts', async () => {
  const h = await harness();
  try {
    const { run } = stageRunner(h);
    const a = summaryOf(await run(context(h, { args: { n: 1 } }), textResult(bigText(20_000, 'north')))).metadata
      .artifactId;
    const b = summaryOf(
      await run(
        context(h, { args: { n: 2 } }),
        textResult(
          JSON.stringify(
            Array.from({ length: 400 }, (_, i) => ({
              id: `ord_${i}`,
              total: i * 3,
              status: i % 5 ? 'paid' : 'failed',
            })),
          ),
        ),
      ),
    ).metadata.artifactId;
    for (const maxTokens of [60, 150, 400, 1_500, 6_000]) {
      const result = (await handleIntelTool(h.intel, 'get_artifact_context', { ids: [a, b], maxTokens }, ''))!;
      const text = allText(result);
      const used = countTokens(text);
      assert.ok(used <= maxTokens, `budget ${maxTokens}: used ${used}`);
      const meta = result.structuredContent as {
        used_tokens: number;
        artifacts: Array<{ id: string; excerpt_chars: number; complete: boolean }>;
      };
      assert.equal(meta.used_tokens, used, 'the reported count is the real one');
      if (maxTokens >= 400) {
        assert.match(text, new RegExp(`## ${a}`));
        assert.match(text, new RegExp(`## ${b}`));
        assert.match(text, /Summary: \{"keyFindings"/);
      }
      if (maxTokens >= 1_500) {
        assert.ok(
          meta.artifacts.every((x) => x.excerpt_chars > 0),
          'both get an excerpt',
        );
        assert.ok(used > maxTokens * 0.8, `the budget is used (${used} of ${maxTokens})`);
        assert.match(text, /Record north-0 describes item 0/);
      }
    }
    const whole = (await handleIntelTool(h.intel, 'get_artifact_context', { ids: [b], maxTokens: 100_000 }, ''))!;
    assert.equal((whole.structuredContent as { artifacts: Array<{ complete: boolean }> }).artifacts[0]!.complete, true);
    const missing = (await handleIntelTool(
      h.intel,
      'get_artifact_context',
      { ids: ['art_ffffffffffff', a], maxTokens: 500 },
      '',
    ))!;
    assert.match(allText(missing), /Not available \(art_ffffffffffff\): No stored result/);
    assert.match(allText(missing), new RegExp(`## ${a}`));
  } finally {
    await h.close();
  }
});

test('get_artifact_context with a query answers a question about the middle of a large result, within the budget', async () => {
  const h = await harness();
  try {
    const { run } = stageRunner(h);
    const orders = Array.from({ length: 2_000 }, (_, i) => ({
      id: `ORD-${7000 + i}`,
      customer: `cus_${(i * 31) % 97}`,
      total_cents: 1000 + ((i * 173) % 9000),
      status: 'delivered',
      carrier: 'parcelpost',
    }));
    orders[1_042] = { ...orders[1_042]!, status: 'held at customs', carrier: 'seafreight-express' };
    const raw = JSON.stringify(orders, null, 1);
    const id = summaryOf(await run(context(h, { tool: 'list_orders', args: { page: 1 } }), textResult(raw))).metadata
      .artifactId;
    const at = raw.indexOf('ORD-8042');
    assert.ok(at > raw.length * 0.4 && at < raw.length * 0.6, 'the answer is in the middle');
    for (const maxTokens of [300, 1_500]) {
      const result = (await handleIntelTool(
        h.intel,
        'get_artifact_context',
        { ids: [id], maxTokens, query: 'which carrier ships order ORD-8042 and what is its status?' },
        '',
      ))!;
      const text = allText(result);
      assert.ok(countTokens(text) <= maxTokens, `budget ${maxTokens}: used ${countTokens(text)}`);
      assert.match(text, /seafreight-express/, `budget ${maxTokens}: the answer is in the context`);
      assert.match(text, /held at customs/);
      const meta = result.structuredContent as { passages: Array<{ id: string; start: number; end: number }> };
      assert.ok(
        meta.passages.some((p) => p.start <= at && at < p.end),
        'its range is given',
      );
    }
    const nothing = (await handleIntelTool(
      h.intel,
      'get_artifact_context',
      { ids: [id], maxTokens: 800, query: 'zebra quokka' },
      '',
    ))!;
    assert.match(allText(nothing), /No passage matches "zebra quokka"/);
    assert.match(allText(nothing), /Summary: /);
  } finally {
    await h.close();
  }
});

test(
  'semantic_search without a model is lexical: it finds passages of past results by their words, ' +
    'with the artifact, range, relevance and age',
  async () => {
    const h = await harness();
    try {
      const { run } = stageRunner(h);
      const pods = JSON.stringify({
        kind: 'PodList',
        items: Array.from({ length: 40 }, (_, i) => ({
          metadata: { name: `checkout-${i}`, namespace: 'shop' },
          status: { phase: i === 3 ? 'CrashLoopBackOff' : 'Running' },
        })),
      });
      const invoices = JSON.stringify(
        Array.from({ length: 60 }, (_, i) => ({
          id: `in_${i}`,
          customer: `cus_${i % 7}`,
          amount_due: i * 100,
          status: 'open',
        })),
      );
      const podsId = summaryOf(
        await run(
          context(h, { power: 'kubernetes', tool: 'list_pods', args: { namespace: 'shop' } }),
          textResult(pods),
        ),
      ).metadata.artifactId;
      h.clock.now += 90_000;
      await run(context(h, { power: 'billing', tool: 'list_invoices', args: {} }), textResult(invoices));
      h.clock.now += 30_000;
      const found = (await handleIntelTool(
        h.intel,
        'semantic_search',
        { query: 'kubernetes pods in the shop namespace', limit: 5 },
        '',
      ))!.structuredContent as Record<string, any>;
      assert.equal(found.mode, 'lexical');
      assert.equal(found.results[0].id, podsId);
      assert.equal(found.results[0].power, 'kubernetes');
      assert.equal(found.results[0].age, '2 min');
      assert.equal(found.results[0].age_seconds, 120);
      assert.ok(found.results[0].relevance > 0 && found.results[0].relevance <= 1);
      const raw = (await h.intel.artifacts.readRaw(podsId, ''))!;
      assert.equal(
        raw.slice(found.results[0].start, found.results[0].end).startsWith(found.results[0].passage.replace(/…$/, '')),
        true,
        'the range is where the passage comes from',
      );
      assert.match(found.results[0].passage, /shop/);
      assert.ok(!found.results.some((r: { power: string }) => r.power === 'billing'), 'no shared words: not returned');
      const none = (await handleIntelTool(h.intel, 'semantic_search', { query: 'automobile', limit: 5 }, ''))!
        .structuredContent as Record<string, any>;
      assert.deepEqual(none.results, []);
    } finally {
      await h.close();
    }
  },
);

test('semantic_search with the (tiny) model finds a past result by meaning, with no word in common', async () => {
  await withTinyModel({}, async (h) => {
    const { run } = stageRunner(h);
    const cars = summaryOf(
      await run(context(h, { power: 'fleet', tool: 'list', args: { kind: 'garage' } }), textResult(vehicles(40))),
    ).metadata.artifactId;
    await run(context(h, { power: 'meteo', tool: 'report', args: { region: 'north' } }), textResult(weather(40)));
    assert.ok(
      !(await h.intel.artifacts.live(10, '')).some((r) => /automobile/i.test(r.searchText)),
      'the word itself is nowhere in the stored results',
    );
    const found = (await handleIntelTool(h.intel, 'semantic_search', { query: 'automobile', limit: 5 }, ''))!
      .structuredContent as Record<string, any>;
    assert.equal(found.mode, 'semantic');
    assert.equal(
      found.results[0].id,
      cars,
      JSON.stringify(found.results.map((r: Record<string, unknown>) => [r.power, r.relevance])),
    );
    const forecast = (await handleIntelTool(h.intel, 'semantic_search', { query: 'climate', limit: 1 }, ''))!
      .structuredContent as Record<string, any>;
    assert.equal(forecast.results[0].power, 'meteo');
  });
});

test('a similar earlier result lends its summary instead of asking the model again (never skipping the call)', async () => {
  await withTinyModel({}, async (h) => {
    let asked = 0;
    const sample: SampleFn = async (): Promise<CreateMessageResult> => {
      asked++;
      return {
        model: 'scripted',
        role: 'assistant',
        content: {
          type: 'text',
          text: '{"keyFindings":["Fleet of trucks.","All vehicles drive.","Cars are listed."],"actionableInsights":[]}',
        },
      };
    };
    const { run, upstream } = stageRunner(h);
    const first = await run(
      context(h, { power: 'fleet', tool: 'list', args: { page: 1 }, sample }),
      textResult(vehicles(40)),
    );
    assert.equal(metaOf(first).summarizer, 'sampling');
    const second = await run(
      context(h, { power: 'fleet', tool: 'list', args: { page: 2 }, sample }),
      textResult(vehicles(41)),
    );
    assert.equal(upstream.calls, 2, 'the call itself still ran');
    assert.equal(asked, 1, 'the model was not asked again');
    assert.equal(metaOf(second).summarizer, 'similar');
    assert.equal(summaryOf(second).metadata.reusedFrom, summaryOf(first).metadata.artifactId);
    assert.notEqual(
      summaryOf(second).metadata.artifactId,
      summaryOf(first).metadata.artifactId,
      'the new result is stored as its own artifact',
    );
    assert.deepEqual(summaryOf(second).keyFindings, ['Fleet of trucks.', 'All vehicles drive.', 'Cars are listed.']);

    const unrelated = await run(
      context(h, { power: 'fleet', tool: 'list', args: { page: 3 }, sample }),
      textResult(weather(40)),
    );
    assert.equal(metaOf(unrelated).summarizer, 'sampling', 'a dissimilar result is summarized anew');
    assert.equal(asked, 2);

    const local = await run(context(h, { power: 'fleet', tool: 'list', args: { page: 4 } }), textResult(vehicles(42)));
    assert.equal(metaOf(local).summarizer, 'local', 'with only the local summarizer there is nothing to save: it runs');
    const report = await h.intel.tokenReport();
    assert.equal(report.cache.similar, 1);
  });
});
