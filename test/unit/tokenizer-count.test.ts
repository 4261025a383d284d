import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chunks, countTokens, headWithin, loadEncoder } from '../../server/intel/tokens/tokenizer-core.js';
import { repoRoot } from '../helpers/temp.js';

/** The count as js-tiktoken's own `encode` gives it, chunk by chunk. */
function encodedCount(text: string): number {
  const enc = loadEncoder();
  return chunks(text).reduce((sum, piece) => sum + enc.encode(piece, 'all').length, 0);
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(file) : /\.(ts|md|json|yaml)$/.test(entry.name) ? [file] : [];
  });
}

test("the encoder keeps the fields the counter reads (else it falls back to encode, correct but slower)", () => {
  const fields = loadEncoder() as unknown as { patStr?: unknown; rankMap?: unknown; specialTokens?: unknown };
  assert.equal(typeof fields.patStr, 'string');
  assert.ok(fields.rankMap instanceof Map);
  assert.equal(typeof fields.specialTokens, 'object');
});

test("countTokens gives encode's count on the repository's sources and on hostile text", () => {
  const texts = [
    '',
    ' ',
    'Echo: bench 42',
    "I'm sure they'll say it's 1234567 tokens, isn't it?",
    'héllo wörld — naïve café, Ελληνικά, русский, 日本語のテキスト, 中文, 한국어, עברית, العربية',
    '👩‍👩‍👧‍👦 family, 🏳️‍🌈 flag, e\u0301 combining, \uD83D lone surrogate, \u0000 nul',
    'line one\r\nline two\r\n\r\n\n   indented\t\ttabs   \n    ',
    'a<|endoftext|>b <|endofprompt|> <|endoftext|><|endoftext|>c <|endoftex|> <|unknown|>',
    '{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"x"}]}}',
    'x'.repeat(64) + ' ' + ' '.repeat(63) + 'y',
    Array.from({ length: 3000 }, (_, i) => `word${i} ${i * 7919}`).join(' '),
  ];
  for (const text of texts) assert.equal(countTokens(text), encodedCount(text), JSON.stringify(text.slice(0, 60)));
  // Every third source file (the whole tree takes encode half a minute), and the README.
  const files = [...sourceFiles(path.join(repoRoot, 'server')).filter((_, i) => i % 3 === 0), path.join(repoRoot, 'README.md')];
  assert.ok(files.length > 60, `${files.length} files`);
  let total = 0;
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    const count = countTokens(text);
    assert.equal(count, encodedCount(text), file);
    assert.equal(countTokens(text), count, `${file}, counted again (from the piece cache)`);
    total += count;
  }
  assert.ok(total > 100_000, `${total} tokens in all`);
});

test('a piece of more than 64 characters (a hash, a blob, padding) is counted in slices: fast, off by a token or two a slice', { timeout: 60_000 }, () => {
  for (const text of ['x'.repeat(1_000), ' '.repeat(1_000) + 'end', 'abcdefghij'.repeat(100), '😀'.repeat(301), 'é'.repeat(700)]) {
    const exact = encodedCount(text);
    const sliced = countTokens(text);
    const slices = Math.ceil(text.length / 64);
    // Each cut can split what would have been one token into two on either side.
    assert.ok(Math.abs(sliced - exact) <= 2 * slices, `${JSON.stringify(text.slice(0, 12))}: ${sliced} against ${exact}`);
  }
  // Encoding these whole would take minutes; sliced, the test's own timeout is far away.
  const huge = 'q'.repeat(400_000);
  const count = countTokens(huge);
  assert.ok(count > 400_000 / 64 && count < 400_000, String(count));
  assert.equal(countTokens('😀'.repeat(301)), countTokens('😀'.repeat(301)), 'the same count again');
});

test('headWithin cuts at a token as encode would, and a long piece costs it no more than its slices', { timeout: 60_000 }, () => {
  const enc = loadEncoder();
  const text = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8').slice(0, 12_000);
  for (const budget of [1, 37, 500, 2_000]) {
    const head = headWithin(text, budget);
    const tokens = enc.encode(text, 'all').slice(0, budget);
    assert.equal(head.tokens, budget);
    assert.ok(text.startsWith(head.text));
    assert.equal(head.text, enc.decode(tokens).replace(/\uFFFD+$/u, ''), `budget ${budget}`);
  }
  // Encoding these chunks whole would take minutes; in slices the whole text stays within budget.
  const blob = 'see: ' + 'q'.repeat(100_000) + ' end';
  const head = headWithin(blob, 300);
  assert.equal(head.tokens, 300);
  assert.ok(blob.startsWith(head.text) && head.text.length > 300, String(head.text.length));
  assert.deepEqual(headWithin(blob, 1_000_000), { text: blob, tokens: countTokens(blob) });
});
