import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Writable } from 'node:stream';
import { releaseCoalesced, writeJsonLine } from '../../server/util/coalesced-write.js';

/** A stream that records each write it is handed, and holds its callback while `hold` is set. */
function recorder(highWaterMark = 16 * 1024) {
  const writes: string[] = [];
  const held: Array<() => void> = [];
  let hold = false;
  const stream = new Writable({
    highWaterMark,
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, callback) {
      writes.push(String(chunk));
      if (hold) held.push(() => callback());
      else callback();
    },
  });
  return { stream, writes, held, setHold: (value: boolean) => (hold = value) };
}

test('lines written in one turn reach the stream as one write, in order, before the next turn', async () => {
  const { stream, writes } = recorder();
  const sent = [1, 2, 3].map((id) => writeJsonLine(stream, { jsonrpc: '2.0', id, result: {} }));
  assert.deepEqual(writes, [], 'nothing is handed over while the turn runs');
  await Promise.all(sent);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(writes, [[1, 2, 3].map((id) => `{"jsonrpc":"2.0","id":${id},"result":{}}\n`).join('')]);
  writeJsonLine(stream, { id: 4 });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(writes.length, 2, 'a later turn is a write of its own');
  assert.equal(writes[1], '{"id":4}\n');
});

test('past the high-water mark (what is queued counted) the promise waits for drain', async () => {
  const { stream, writes, held, setHold } = recorder(64);
  setHold(true);
  const small = writeJsonLine(stream, { id: 1 });
  const large = writeJsonLine(stream, { id: 2, text: 'x'.repeat(100) });
  let settled = false;
  void large.then(() => (settled = true));
  await small;
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(writes.length, 1);
  assert.equal(settled, false, 'the stream has not drained');
  setHold(false);
  held.splice(0).forEach((done) => done());
  await large;
  assert.equal(settled, true);
});

test('lines waiting for a drain share one promise: a slow reader adds no listener per message', async () => {
  const { stream, held, setHold } = recorder(64);
  setHold(true);
  const waiting = Array.from({ length: 50 }, (_, id) => writeJsonLine(stream, { id, text: 'x'.repeat(40) }));
  assert.equal(stream.listenerCount('drain'), 1);
  assert.equal(stream.listenerCount('close'), 1);
  assert.equal(new Set(waiting.slice(2)).size, 1, 'one promise for the lines past the mark');
  await new Promise((resolve) => setImmediate(resolve));
  setHold(false);
  held.splice(0).forEach((done) => done());
  await Promise.all(waiting);
  assert.equal(stream.listenerCount('drain'), 0, 'its listeners go once it drained');
});

test('releaseCoalesced hands over what is queued, so a stream ended in the same turn still gets it', async () => {
  const { stream, writes } = recorder();
  const errors: Error[] = [];
  stream.on('error', (error) => errors.push(error));
  void writeJsonLine(stream, { method: 'notifications/cancelled' });
  releaseCoalesced(stream);
  stream.end();
  await new Promise((resolve) => stream.on('finish', resolve));
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(writes, ['{"method":"notifications/cancelled"}\n']);
  assert.deepEqual(errors, []);
});

test('a message JSON cannot hold rejects and leaves the stream as it was', async () => {
  const { stream, writes } = recorder();
  await assert.rejects(writeJsonLine(stream, { id: 1n }), TypeError);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(writes, []);
});
