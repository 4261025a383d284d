import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chunkRanges } from '../../server/intel/search/passages.js';
import { SUMMARY_INPUT_CHARS, summarizeLocally } from '../../server/intel/local/local-summarizer.js';
import { InlineSummarizer, WorkerSummarizer } from '../../server/intel/local/summary-thread.js';
import { chunks } from '../../server/intel/tokens/tokenizer-core.js';
import { lastIndexWithin } from '../../server/util/bounded-lines.js';

/** One line of megabytes (minified JSON): cut into chunks and passages whole, and summarized from its start. */
const line = (chars: number) => {
  const parts: string[] = [];
  for (let i = 0, n = 0; n < chars; i += 1) {
    const part = JSON.stringify({ id: i, path: `/srv/data/file-${i}.txt`, owner: `user${i % 13}` });
    parts.push(part);
    n += part.length + 1;
  }
  return `[${parts.join(',')}]`;
};

test('lastIndexWithin is lastIndexOf bounded below', () => {
  const text = 'a\nbc\nd';
  for (const [from, position] of [
    [0, 6],
    [2, 6],
    [0, 1],
    [2, 3],
    [5, 6],
    [6, 6],
    [3, 2],
  ] as const) {
    const plain = text.lastIndexOf('\n', position);
    assert.equal(lastIndexWithin(text, '\n', from, position), plain >= from ? plain : -1, `${from}, ${position}`);
  }
  assert.equal(lastIndexWithin('x, y, z', ', ', 0, 7), 4);
});

test(
  'a single line of 4 MB is cut into token chunks and passages that hold it whole (linear: ' +
    'it used to scan back to the start for every cut)',
  () => {
    const text = line(4_000_000);
    const pieces = chunks(text);
    assert.equal(pieces.join(''), text);
    assert.ok(pieces.every((piece) => piece.length <= 4_000));
    const ranges = chunkRanges(text);
    assert.equal(ranges[0]![0], 0);
    assert.equal(ranges[ranges.length - 1]![1], text.length);
    for (let i = 1; i < ranges.length; i += 1) assert.equal(ranges[i]![0], ranges[i - 1]![1]);
  },
);

test('a result over the summarizer input bound is summarized from its start, and the summary says so', async () => {
  const text = line(SUMMARY_INPUT_CHARS * 3);
  const summary = summarizeLocally({ text });
  assert.match(
    summary.keyFindings.join('\n'),
    /Summarized from the first .* of its .* of text; the whole result is in the artifact/,
  );
  const small = summarizeLocally({ text: line(200_000) });
  assert.equal(small.kind, 'json');
  assert.doesNotMatch(small.keyFindings.join('\n'), /Summarized from the first/);
});

test('the worker thread summarizes as this thread does', async () => {
  const text = line(300_000);
  const worker = new WorkerSummarizer();
  try {
    assert.deepEqual(
      await worker.summarize({ text, tool: 'dump' }),
      await new InlineSummarizer().summarize({ text, tool: 'dump' }),
    );
  } finally {
    await worker.close();
  }
});
