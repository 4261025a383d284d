import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cachedTokenCounts, TOKEN_COUNTS_FILE } from '../../server/intel/tokens/token-count-cache.js';
import { InlineTokenizer, type Tokenizer } from '../../server/intel/tokens/tokenizer.js';
import { tempDir } from '../helpers/temp.js';

/** The real tokenizer, recording which texts it was asked to count. */
function countingTokenizer(name = 'o200k_base'): Tokenizer & { asked: string[] } {
  const inner = new InlineTokenizer();
  const asked: string[] = [];
  return {
    name,
    asked,
    count: async (texts) => {
      asked.push(...texts);
      return inner.count(texts);
    },
    head: (text, max) => inner.head(text, max),
    close: async () => undefined,
  };
}

test('a text counted once is taken from the data dir the next time, by another tokenizer instance too', async (t) => {
  const { dir, cleanup } = tempDir();
  t.after(cleanup);
  const list = JSON.stringify([
    { name: 'read_file', description: 'Read a file from the workspace', inputSchema: { type: 'object' } },
  ]);
  const first = countingTokenizer();
  const counts = await cachedTokenCounts(dir, first, [list, '[]']);
  assert.deepEqual(first.asked, [list, '[]']);
  assert.deepEqual(counts, await new InlineTokenizer().count([list, '[]']));
  assert.ok(counts[0]! > 5);

  const second = countingTokenizer();
  assert.deepEqual(await cachedTokenCounts(dir, second, [list, '[]', 'a new text']), [...counts, 3]);
  assert.deepEqual(second.asked, ['a new text'], 'only the text not counted before is counted');

  const otherEncoding = countingTokenizer('cl100k_base');
  await cachedTokenCounts(dir, otherEncoding, [list]);
  assert.deepEqual(otherEncoding.asked, [list], "another tokenizer's counts are its own");
});

test('a cache file that is not JSON, not ours, too large or a directory is ignored and the counts are right', async (t) => {
  const { dir, cleanup } = tempDir();
  t.after(cleanup);
  const file = path.join(dir, TOKEN_COUNTS_FILE);
  const expected = await new InlineTokenizer().count(['hello world']);
  for (const content of [
    '{not json',
    JSON.stringify({ ['0'.repeat(64)]: { tokens: -4, at: 1 }, x: 1 }),
    'x'.repeat(200 * 1024),
  ]) {
    fs.writeFileSync(file, content);
    const tokenizer = countingTokenizer();
    assert.deepEqual(await cachedTokenCounts(dir, tokenizer, ['hello world']), expected);
    assert.deepEqual(tokenizer.asked, ['hello world']);
    assert.ok(JSON.parse(fs.readFileSync(file, 'utf8')), 'replaced by a valid cache');
  }
  fs.rmSync(file);
  fs.mkdirSync(file);
  assert.deepEqual(
    await cachedTokenCounts(dir, countingTokenizer(), ['hello world']),
    expected,
    'a cache that cannot be written still counts',
  );
});

test('the cache keeps the 64 newest counts', async (t) => {
  const { dir, cleanup } = tempDir();
  t.after(cleanup);
  for (let i = 0; i < 70; i++) await cachedTokenCounts(dir, countingTokenizer(), [`text ${i}`], 1000 + i);
  const kept = Object.values(
    JSON.parse(fs.readFileSync(path.join(dir, TOKEN_COUNTS_FILE), 'utf8')) as Record<string, { at: number }>,
  );
  assert.equal(kept.length, 64);
  assert.equal(Math.min(...kept.map((entry) => entry.at)), 1006);
  const tokenizer = countingTokenizer();
  await cachedTokenCounts(dir, tokenizer, ['text 0', 'text 69']);
  assert.deepEqual(tokenizer.asked, ['text 0'], 'the oldest was dropped, the newest kept');
});
