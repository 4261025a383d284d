import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CountBatcher } from '../../server/intel/tokens/count-batcher.js';
import { InlineTokenizer } from '../../server/intel/tokens/tokenizer.js';

/** The real in-thread tokenizer, with its requests counted. */
function countingTokenizer() {
  const inner = new InlineTokenizer();
  const requests: string[][] = [];
  return {
    requests,
    count: (texts: string[]) => {
      requests.push(texts);
      return inner.count(texts);
    },
  };
}

test('counts asked within the delay go to the tokenizer in one request, each caller gets its own counts', async () => {
  const tokenizer = countingTokenizer();
  const batcher = new CountBatcher(tokenizer, 20);
  const texts = [['hello world'], ['a much longer text with more tokens in it', 'x'], ['another']];
  const counts = await Promise.all(texts.map((t) => batcher.count(t)));
  const expected = await Promise.all(texts.map((t) => new InlineTokenizer().count(t)));
  assert.deepEqual(counts, expected);
  assert.equal(tokenizer.requests.length, 1);
  assert.deepEqual(tokenizer.requests[0], texts.flat());
});

test('past maxTexts, or on flush(), the batch goes at once; a failure reaches every caller of the batch', async () => {
  const tokenizer = countingTokenizer();
  const batcher = new CountBatcher(tokenizer, 60_000, 3);
  const full = Promise.all([batcher.count(['a', 'b']), batcher.count(['c'])]);
  assert.equal(tokenizer.requests.length, 1, 'three texts waited: sent without waiting for the delay');
  assert.deepEqual(
    (await full).map((c) => c.length),
    [2, 1],
  );
  const flushed = batcher.count(['d']);
  batcher.flush();
  assert.equal(tokenizer.requests.length, 2);
  assert.equal((await flushed).length, 1);
  assert.deepEqual(await batcher.count([]), [], 'nothing to count: no request');
  assert.equal(tokenizer.requests.length, 2);

  const failing = new CountBatcher({ count: () => Promise.reject(new Error('worker gone')) }, 5);
  const results = await Promise.allSettled([failing.count(['a']), failing.count(['b'])]);
  assert.deepEqual(
    results.map((r) => r.status),
    ['rejected', 'rejected'],
  );
});

test(
  'add() hands each caller its counts by callback; settled() waits for what waits and what is being ' +
    'counted; a throwing callback reaches its own failed',
  async () => {
    const tokenizer = countingTokenizer();
    const batcher = new CountBatcher(tokenizer, 60_000);
    const got: number[][] = [];
    const errors: string[] = [];
    batcher.add(
      ['one two three'],
      (counts) => got.push(counts),
      (error) => errors.push(String(error)),
    );
    batcher.add(
      ['four'],
      () => {
        throw new Error('apply failed');
      },
      (error) => errors.push((error as Error).message),
    );
    batcher.add(
      ['five six'],
      (counts) => got.push(counts),
      (error) => errors.push(String(error)),
    );
    assert.equal(tokenizer.requests.length, 0, 'waiting for the delay');
    await batcher.settled();
    assert.equal(tokenizer.requests.length, 1, 'settled() sent the batch at once');
    assert.deepEqual(got, [
      await new InlineTokenizer().count(['one two three']),
      await new InlineTokenizer().count(['five six']),
    ]);
    assert.deepEqual(errors, ['apply failed']);
    await batcher.settled();
    assert.equal(tokenizer.requests.length, 1, 'nothing left: no request');
  },
);

test('nothing to count, asked while a batch is counted, settles after that batch', async () => {
  const batcher = new CountBatcher(countingTokenizer(), 60_000);
  const order: string[] = [];
  const failed = (error: unknown) => order.push(`failed: ${String(error)}`);
  batcher.add(['some text'], () => order.push('counted'), failed);
  batcher.flush();
  batcher.add([], () => order.push('nothing'), failed);
  await batcher.settled();
  assert.deepEqual(order, ['counted', 'nothing']);
});
