import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { setLogSink } from '../../server/log.js';
import { Intel } from '../../server/intel/intel.js';
import { InlineTokenizer } from '../../server/intel/tokens/tokenizer.js';
import {
  allText,
  bigText,
  context,
  harness,
  metaOf,
  stageRunner,
  summaryOf,
  textResult,
  WRITES,
} from './intel-helpers.js';

/** The spell's opt-in: `cache: { <tool>: { ttlSeconds: 600 } }`. */
const OPT_IN = { cacheTtlSeconds: 600 };

before(() => setLogSink(() => undefined));
after(() => setLogSink((line) => process.stderr.write(line + '\n')));

test(
  'exact hit, only where a spell opts in: the same call (arguments in any key order) is answered from ' +
    'the cache, marked cached',
  async () => {
    const h = await harness();
    try {
      const { run, upstream } = stageRunner(h);
      const first = await run(
        context(h, { ...OPT_IN, args: { path: '/a', options: { depth: 2, hidden: false } } }),
        textResult(bigText(5000)),
      );
      h.clock.now += 5 * 60_000;
      const second = await run(
        context(h, { ...OPT_IN, args: { options: { hidden: false, depth: 2 }, path: '/a' }, startedAt: h.clock.now }),
        textResult('never returned'),
      );
      assert.equal(upstream.calls, 1, 'the server was not called again');
      assert.equal(summaryOf(second).metadata.cached, true);
      assert.equal(summaryOf(second).metadata.artifactId, summaryOf(first).metadata.artifactId);
      assert.deepEqual(summaryOf(second).keyFindings, summaryOf(first).keyFindings);
      assert.equal(metaOf(second).cached, true);
      assert.match(
        allText(second),
        /From Grimoire's cache \(its spell sets cache\.ttlSeconds for this tool\): this call ran 5 min ago and was not sent again/,
      );

      await run(context(h, { ...OPT_IN, args: { path: '/b' } }), textResult(bigText(5000)));
      assert.equal(upstream.calls, 2, 'other arguments: a miss');
      const report = await h.intel.tokenReport();
      assert.deepEqual(report.cache, { hits: 1, misses: 2, similar: 0, hitRate: 0.333 });

      h.clock.now += 601_000;
      await run(context(h, { ...OPT_IN, startedAt: h.clock.now, args: { path: '/b' } }), textResult(bigText(5000)));
      assert.equal(upstream.calls, 3, 'past ttlSeconds the server is called again');
    } finally {
      await h.close();
    }
  },
);

test('by default every call reaches the server, read-only or not; an identical result reuses its summary', async () => {
  const h = await harness();
  try {
    const { run, upstream } = stageRunner(h);
    const annotations = [
      { readOnlyHint: true, source: 'server' as const },
      WRITES,
      { source: 'none' as const },
      { readOnlyHint: true, source: 'inferred' as const, inferred: true as const },
    ];
    for (const [i, a] of annotations.entries()) {
      const before = upstream.calls;
      const results = [];
      for (let n = 0; n < 3; n++) {
        h.clock.now += 1000;
        results.push(
          await run(context(h, { power: `p${i}`, annotations: a, startedAt: h.clock.now }), textResult(bigText(5000))),
        );
      }
      assert.equal(upstream.calls - before, 3, `annotations ${JSON.stringify(a)}: every call reached the server`);
      assert.notEqual(summaryOf(results[2]).metadata.cached, true);
      assert.match(metaOf(results[2]).attempts[0].detail, /identical result, summary of .* reused/);
    }
    const changed = await run(
      context(h, { power: 'p0', startedAt: h.clock.now }),
      textResult(`${bigText(5000)}\nchanged on disk`),
    );
    assert.doesNotMatch(JSON.stringify(metaOf(changed).attempts), /identical result/, 'new content is summarized anew');
  } finally {
    await h.close();
  }
});

test('nothing stored by an earlier gateway process is served as a result', async () => {
  const h = await harness();
  try {
    await stageRunner(h).run(context(h, OPT_IN), textResult(bigText(5000)));
    await h.intel.close();
    h.clock.now += 1000;
    h.intel = new Intel({
      store: h.store,
      settings: () => h.settings,
      tokenizer: new InlineTokenizer(),
      now: () => h.clock.now,
    });
    const { run, upstream } = stageRunner(h);
    const again = await run(context(h, { ...OPT_IN, startedAt: h.clock.now }), textResult(bigText(5000)));
    assert.equal(upstream.calls, 1, 'the new process called the server');
    assert.notEqual(summaryOf(again).metadata.cached, true);
  } finally {
    await h.close();
  }
});

test('a non-read-only call to a power invalidates the cached reads of that power (not of others)', async () => {
  const h = await harness();
  try {
    const { run, upstream } = stageRunner(h);
    const read = (power: string) =>
      run(context(h, { ...OPT_IN, power, startedAt: h.clock.now }), textResult(bigText(5000)));
    await read('files');
    await read('notes');
    h.clock.now += 1000;
    await read('files');
    assert.equal(upstream.calls, 2, 'cached');
    await run(
      context(h, { tool: 'write', annotations: WRITES, args: { path: '/a', content: 'x' }, startedAt: h.clock.now }),
      textResult('ok'),
    );
    assert.equal(upstream.calls, 3);
    h.clock.now += 1000;
    await read('files');
    assert.equal(upstream.calls, 4, 'the write made the cached read stale: called again');
    await read('notes');
    assert.equal(upstream.calls, 4, 'another power keeps its cache');
    h.clock.now += 1000;
    await read('files');
    assert.equal(upstream.calls, 4, 'the fresh read after the write is cached again');
  } finally {
    await h.close();
  }
});

test('the cache can be turned off; small results are never cached', async () => {
  const h = await harness({ cache: { enabled: false } });
  try {
    const { run, upstream } = stageRunner(h);
    await run(context(h, OPT_IN), textResult(bigText(5000)));
    await run(context(h, OPT_IN), textResult(bigText(5000)));
    assert.equal(upstream.calls, 2);
    h.settings.cache.enabled = true;
    await run(context(h, { tool: 'small' }), textResult('tiny'));
    await run(context(h, { tool: 'small' }), textResult('tiny'));
    assert.equal(upstream.calls, 4);
  } finally {
    await h.close();
  }
});
