import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import type { CutLine } from '../../server/util/bounded-lines.js';
import { cutMessageId, tooLargeAnswer } from '../../server/upstream/children/oversize-message.js';
import { StderrTail, STDERR_LINE_BYTES } from '../../server/upstream/stderr-tail.js';

test('the request a cut answer belongs to: its id first or last, only a waiting one, else the only one waiting', () => {
  const cut = (head: string, tail: string): CutLine => ({ bytes: 1, head: Buffer.from(head), tail: Buffer.from(tail) });
  assert.equal(
    cutMessageId(cut('{"result":{"content":[{"text":"yyy', 'yyy"}]},"jsonrpc":"2.0","id":7}'), new Set([3, 7])),
    7,
    'the TypeScript SDK puts the id last',
  );
  assert.equal(
    cutMessageId(cut('{"jsonrpc":"2.0","id":"a-1","result":{"x":"', '"}}'), new Set(['a-1', 2])),
    'a-1',
    'most serializers put it first',
  );
  assert.equal(
    cutMessageId(cut('{"result":{"id":5,"text":"', '"},"id":9}'), new Set([5, 6])),
    undefined,
    'an id inside the result, or one not waiting, does not count',
  );
  assert.equal(
    cutMessageId(cut('{"result":{"text":"', 'garbage'), new Set([4])),
    4,
    'one request waiting: it is the one',
  );
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
