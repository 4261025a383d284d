import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { BoundedLines, type CutLine } from '../../server/upstream/children/bounded-lines.js';
import { cutMessageId, tooLargeAnswer } from '../../server/upstream/children/oversize-message.js';
import { StderrTail, STDERR_LINE_BYTES } from '../../server/upstream/stderr-tail.js';

function split(max: number, chunks: Array<string | Buffer>) {
  const lines: string[] = [];
  const cuts: CutLine[] = [];
  const splitter = new BoundedLines(max, (line) => lines.push(line.toString()), (cut) => cuts.push(cut));
  for (const chunk of chunks) splitter.push(Buffer.from(chunk));
  return { lines, cuts, splitter };
}

test('lines split across chunks arrive whole; several in one chunk arrive in order', () => {
  const { lines, cuts } = split(100, ['{"a":', '1}\n{"b"', ':2}\n{"c":3}\n', '\n']);
  assert.deepEqual(lines, ['{"a":1}', '{"b":2}', '{"c":3}', '']);
  assert.deepEqual(cuts, []);
});

test('a line over the bound is cut: its size counted, its start and end kept, the lines after it intact', () => {
  const body = 'h'.repeat(50) + 'm'.repeat(10_000) + 't'.repeat(50);
  const chunks = [...body.match(/.{1,333}/g)!, '\nnext\n'];
  const { lines, cuts, splitter } = split(1000, chunks);
  assert.deepEqual(lines, ['next']);
  assert.equal(cuts.length, 1);
  assert.equal(cuts[0].bytes, body.length);
  assert.ok(cuts[0].head.toString().startsWith('h'.repeat(50)));
  assert.ok(cuts[0].head.length <= 1000);
  assert.ok(cuts[0].tail.toString().endsWith('t'.repeat(50)));
  assert.equal(splitter.pending().length, 0);
});

test('a 100 MB line without a newline is never held: what is pending stays at the bound', () => {
  const cuts: CutLine[] = [];
  const splitter = new BoundedLines(2048, () => assert.fail('no line'), (cut) => cuts.push(cut));
  const block = Buffer.alloc(64 * 1024, 'x');
  const before = process.memoryUsage().arrayBuffers;
  for (let i = 0; i < 1600; i++) splitter.push(block);
  assert.ok(splitter.pending().length <= 2048);
  assert.ok(process.memoryUsage().arrayBuffers - before < 20 * 1024 * 1024, 'no growth with the line');
  splitter.end();
  assert.equal(cuts[0].bytes, 1600 * 64 * 1024);
});

test('the request a cut answer belongs to: its id first or last, only a waiting one, else the only one waiting', () => {
  const cut = (head: string, tail: string): CutLine => ({ bytes: 1, head: Buffer.from(head), tail: Buffer.from(tail) });
  assert.equal(cutMessageId(cut('{"result":{"content":[{"text":"yyy', 'yyy"}]},"jsonrpc":"2.0","id":7}'), new Set([3, 7])), 7, 'the TypeScript SDK puts the id last');
  assert.equal(cutMessageId(cut('{"jsonrpc":"2.0","id":"a-1","result":{"x":"', '"}}'), new Set(['a-1', 2])), 'a-1', 'most serializers put it first');
  assert.equal(cutMessageId(cut('{"result":{"id":5,"text":"', '"},"id":9}'), new Set([5, 6])), undefined, 'an id inside the result, or one not waiting, does not count');
  assert.equal(cutMessageId(cut('{"result":{"text":"', 'garbage'), new Set([4])), 4, 'one request waiting: it is the one');
  assert.equal(cutMessageId(cut('garbage', 'garbage'), new Set()), undefined);
  const answer = tooLargeAnswer(7, 20 * 1024 * 1024, 10 * 1024 * 1024) as { id: number; error: { message: string } };
  assert.equal(answer.id, 7);
  assert.equal(answer.error.message, 'result too large (20 MB, limit 10 MB)');
});

test('the stderr tail: lines out, a long line cut to the bound, a line still being written shown last', () => {
  const stream = new PassThrough();
  const tail = new StderrTail(3);
  const seen: string[] = [];
  tail.attach(stream, (line) => seen.push(line));
  stream.write('one\r\ntwo\n\n');
  stream.write('z'.repeat(STDERR_LINE_BYTES * 10) + '\nthree\nfour\n');
  stream.write('half a line');
  assert.equal(seen.length, 5);
  assert.match(seen[2], /^z+\.\.\. \(line cut: 20480 bytes\)$/);
  assert.ok(seen[2].length < STDERR_LINE_BYTES + 40);
  assert.deepEqual(tail.lines(), ['three', 'four', 'half a line']);
  assert.equal(tail.summary(), 'half a line');
  assert.deepEqual(seen.slice(0, 2), ['one', 'two']);
});
