import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InlineTokenizer, WorkerTokenizer } from '../../server/intel/tokens/tokenizer.js';

test('the token worker starts on the first request, ends when idle, and a later request starts a new one', async (t) => {
  // The idle time runs on node:test's fake clock; the worker thread is real.
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const tokenizer = new WorkerTokenizer(undefined, 200);
  const inline = new InlineTokenizer();
  const texts = ['{"tools":[{"name":"resolve_intent"}]}', 'héllo wörld, ünïcode 🙂'];
  try {
    assert.equal(tokenizer.running, false, 'no worker before the first request');
    assert.deepEqual(await tokenizer.count(texts), await inline.count(texts));
    assert.equal(tokenizer.running, true);
    t.mock.timers.tick(199);
    assert.equal(tokenizer.running, true, 'not idle yet');
    t.mock.timers.tick(1);
    assert.equal(tokenizer.running, false, 'the idle worker was ended');
    assert.deepEqual(await tokenizer.count(texts), await inline.count(texts), 'a new worker answers the same');
    assert.equal(tokenizer.running, true);
  } finally {
    await tokenizer.close();
  }
  assert.equal(tokenizer.running, false);
  assert.deepEqual(await tokenizer.count(texts), await inline.count(texts), 'after close, counted in this thread');
});

test(
  'the worker counts each text of a batch sent joined: empty ones, ' +
    'surrogate pairs and lone halves at the seams, as the in-thread tokenizer does',
  async () => {
    const tokenizer = new WorkerTokenizer();
    const inline = new InlineTokenizer();
    const texts = [
      '',
      'a',
      '🙂',
      '\ud83d',
      '\ude42 tail',
      '',
      'Echo: bench 1',
      'x'.repeat(300),
      ...Array.from({ length: 1000 }, (_, i) => `result ${i} `),
    ];
    try {
      const counted = await tokenizer.count(texts);
      assert.equal(tokenizer.running, true, 'counted by the worker');
      assert.equal(counted.length, texts.length);
      assert.deepEqual(counted, await inline.count(texts));
      assert.ok(Array.isArray(counted), 'a plain array, as Tokenizer.count promises');
    } finally {
      await tokenizer.close();
    }
  },
);
