import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InlineTokenizer, WorkerTokenizer } from '../../server/intel/tokens/tokenizer.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('the token worker starts on the first request, ends when idle, and a later request starts a new one', async () => {
  const tokenizer = new WorkerTokenizer(undefined, 200);
  const inline = new InlineTokenizer();
  const texts = ['{"tools":[{"name":"resolve_intent"}]}', 'héllo wörld, ünïcode 🙂'];
  try {
    assert.equal(tokenizer.running, false, 'no worker before the first request');
    assert.deepEqual(await tokenizer.count(texts), await inline.count(texts));
    assert.equal(tokenizer.running, true);
    const deadline = Date.now() + 10_000;
    while (tokenizer.running && Date.now() < deadline) await sleep(50);
    assert.equal(tokenizer.running, false, 'the idle worker was ended');
    assert.deepEqual(await tokenizer.count(texts), await inline.count(texts), 'a new worker answers the same');
    assert.equal(tokenizer.running, true);
  } finally {
    await tokenizer.close();
  }
  assert.equal(tokenizer.running, false);
  assert.deepEqual(await tokenizer.count(texts), await inline.count(texts), 'after close, counted in this thread');
});
