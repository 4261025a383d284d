import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chunks, countTokens, headWithin, loadEncoder, loadRanks } from '../../server/intel/tokens/tokenizer-core.js';
import { repoRoot } from '../helpers/temp.js';

/** The count as js-tiktoken's own `encode` gives it, chunk by chunk. */
function encodedCount(text: string): number {
  const enc = loadEncoder();
  return chunks(text).reduce((sum, piece) => sum + enc.encode(piece, 'all').length, 0);
}

/** Slices of 64 characters in the pieces of the encoder's pattern longer than that (countTokens counts those slice by slice). */
function longPieceSlices(text: string): number {
  const pattern = new RegExp(loadRanks().pat_str, 'gu');
  return [...text.matchAll(pattern)].reduce(
    (n, [piece]) => n + (piece.length > 64 ? Math.ceil(piece.length / 64) : 0),
    0,
  );
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(file) : /\.(ts|md|json|yaml)$/.test(entry.name) ? [file] : [];
  });
}

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
  const files = [
    ...sourceFiles(path.join(repoRoot, 'server')).filter((_, i) => i % 3 === 0),
    path.join(repoRoot, 'README.md'),
  ];
  assert.ok(files.length > 60, `${files.length} files`);
  let total = 0;
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    const count = countTokens(text);
    // Exact, but for pieces over 64 characters (a ruler of dashes in a comment): off by up to two tokens a slice of 64.
    const slices = longPieceSlices(text);
    if (slices === 0) assert.equal(count, encodedCount(text), file);
    else
      assert.ok(
        Math.abs(count - encodedCount(text)) <= 2 * slices,
        `${file}: ${count} against ${encodedCount(text)}, ${slices} slices`,
      );
    assert.equal(countTokens(text), count, `${file}, counted again (from the piece cache)`);
    total += count;
  }
  assert.ok(total > 80_000, `${total} tokens in all (a sample of the tree large enough to mean something)`);
});

test('a tool list on one line (JSON, no line ends) is counted as encode counts it whole', () => {
  const enc = loadEncoder();
  const tools = Array.from({ length: 40 }, (_, i) => ({
    name: `tool_${i}`,
    title: `Tool ${i}`,
    description: `Reads the ${i}th thing of the project, with options: a path, a depth of 3, and "quoted" words (e.g. it's done).`,
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'A path inside the project' },
        depth: { type: 'integer', minimum: 1 },
      },
    },
    outputSchema: { type: 'object', properties: { items: { type: 'array', items: { type: 'string' } } } },
  }));
  const text = JSON.stringify(tools);
  assert.ok(text.length > 4 * 4_000 && !text.includes('\n'), 'several chunks, one line');
  assert.equal(countTokens(text), enc.encode(text, 'all').length);
});

test(
  'a piece of more than 64 characters (a hash, a blob, padding) is counted in slices: fast, off by a token or two a slice',
  { timeout: 60_000 },
  () => {
    for (const text of [
      'x'.repeat(1_000),
      ' '.repeat(1_000) + 'end',
      'abcdefghij'.repeat(100),
      '😀'.repeat(301),
      'é'.repeat(700),
    ]) {
      const exact = encodedCount(text);
      const sliced = countTokens(text);
      const slices = Math.ceil(text.length / 64);
      // Each cut can split what would have been one token into two on either side.
      assert.ok(
        Math.abs(sliced - exact) <= 2 * slices,
        `${JSON.stringify(text.slice(0, 12))}: ${sliced} against ${exact}`,
      );
    }
    // Encoding these whole would take minutes; sliced, the test's own timeout is far away.
    const huge = 'q'.repeat(400_000);
    const count = countTokens(huge);
    assert.ok(count > 400_000 / 64 && count < 400_000, String(count));
    assert.equal(countTokens('😀'.repeat(301)), countTokens('😀'.repeat(301)), 'the same count again');
  },
);

test(
  'headWithin cuts at a token as encode would, and a long piece costs it no more than its slices',
  { timeout: 60_000 },
  () => {
    const enc = loadEncoder();
    const text = fs.readFileSync(path.join(repoRoot, 'docs', 'features.md'), 'utf8').slice(0, 12_000);
    assert.equal(text.length, 12_000, 'twelve thousand characters of prose');
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
  },
);

test('a long text is cut where no piece of the encoder spans the cut: the chunks count as the whole text does', () => {
  const enc = loadEncoder();
  const whole = (text: string) => enc.encode(text, 'all').length;
  const byChunks = (text: string) => chunks(text).reduce((sum, piece) => sum + whole(piece), 0);
  // Blank lines and indented blank lines (one piece with the line end before them), and a line that
  // starts with slashes after one that ends in punctuation (`});` and the line end take them in).
  const line = (i: number) =>
    i % 3 === 0 ? `  call(${i});\n\n    \n` : i % 3 === 1 ? `});\n// note ${i}\n` : `value ${i}\n`;
  const crafted = Array.from({ length: 2_000 }, (_, i) => line(i)).join('');
  assert.ok(chunks(crafted).length > 5);
  assert.equal(byChunks(crafted), whole(crafted));
  assert.equal(countTokens(crafted), whole(crafted));
  for (const file of sourceFiles(path.join(repoRoot, 'server')).filter((_, i) => i % 3 === 1)) {
    const text = fs.readFileSync(file, 'utf8');
    assert.equal(byChunks(text), whole(text), file);
  }
});
