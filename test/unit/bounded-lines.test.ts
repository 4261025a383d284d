import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BoundedLines, type CutLine } from '../../server/util/bounded-lines.js';
import { idOfDropped } from '../../server/gateway/sessions/stdio-transport.js';

function split(max: number, chunks: Array<string | Buffer>, keepBytes?: number) {
  const lines: string[] = [];
  const cuts: CutLine[] = [];
  const splitter = new BoundedLines(
    max,
    (line) => lines.push(line),
    (cut) => cuts.push(cut),
    keepBytes,
  );
  for (const chunk of chunks) splitter.push(Buffer.from(chunk));
  return { lines, cuts, splitter };
}

test('lines split across chunks arrive whole; several in one chunk arrive in order', () => {
  const { lines, cuts } = split(100, ['{"a":', '1}\n{"b"', ':2}\n{"c":3}\n', '\n']);
  assert.deepEqual(lines, ['{"a":1}', '{"b":2}', '{"c":3}', '']);
  assert.deepEqual(cuts, []);
});

test('\\r\\n is accepted; a line is delivered when its newline arrives, not before', () => {
  const lines: string[] = [];
  const splitter = new BoundedLines(
    100,
    (line) => lines.push(line),
    () => assert.fail('no cut'),
  );
  splitter.push(Buffer.from('{"a":'));
  assert.deepEqual(lines, []);
  splitter.push(Buffer.from('1}\r\n{"b":2}\n{"c"'));
  assert.deepEqual(lines, ['{"a":1}', '{"b":2}']);
  splitter.push(Buffer.from(':3}\n'));
  assert.deepEqual(lines, ['{"a":1}', '{"b":2}', '{"c":3}']);
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
  const splitter = new BoundedLines(
    2048,
    () => assert.fail('no line'),
    (cut) => cuts.push(cut),
  );
  const block = Buffer.alloc(64 * 1024, 'x');
  const before = process.memoryUsage().arrayBuffers;
  for (let i = 0; i < 1600; i++) splitter.push(block);
  assert.ok(splitter.pending().length <= 2048);
  assert.ok(process.memoryUsage().arrayBuffers - before < 20 * 1024 * 1024, 'no growth with the line');
  splitter.end();
  assert.equal(cuts[0].bytes, 1600 * 64 * 1024);
});

test('end() delivers a last line without a newline', () => {
  const { lines, splitter } = split(100, ['one\ntwo']);
  assert.deepEqual(lines, ['one']);
  splitter.end();
  assert.deepEqual(lines, ['one', 'two']);
});

test('a message over the limit is dropped as it arrives, holding at most its first and last KB, and the next line is whole', () => {
  const lines: string[] = [];
  const cuts: CutLine[] = [];
  const splitter = new BoundedLines(
    64 * 1024,
    (line) => lines.push(line),
    (cut) => cuts.push(cut),
    1024,
  );
  const body = JSON.stringify({
    method: 'tools/call',
    params: { arguments: { query: 'x'.repeat(5 * 1024 * 1024) } },
    jsonrpc: '2.0',
    id: 42,
  });
  const chunk = 64 * 1024;
  let held = 0;
  for (let at = 0; at < body.length; at += chunk) {
    splitter.push(Buffer.from(body.slice(at, at + chunk)));
    held = Math.max(held, splitter.heldBytes);
  }
  splitter.push(Buffer.from('\n{"jsonrpc":"2.0","id":43,"method":"ping"}\n'));
  assert.ok(held <= 64 * 1024 + 2048, `held ${held} bytes`);
  assert.equal(cuts.length, 1);
  assert.equal(cuts[0].bytes, Buffer.byteLength(body));
  assert.ok(cuts[0].head.length <= 1024 && cuts[0].tail.length <= 1024);
  assert.equal(idOfDropped(cuts[0].head.toString('utf8'), cuts[0].tail.toString('utf8')), 42);
  assert.deepEqual(lines, ['{"jsonrpc":"2.0","id":43,"method":"ping"}']);
});

test('the id of a dropped message: first keys or last key, never a nested one', () => {
  assert.equal(idOfDropped('{"jsonrpc":"2.0","id":"req-1","method":"x","params":{', ''), 'req-1');
  assert.equal(idOfDropped('{"method":"tools/call","id":7,"params":{', ''), 7);
  assert.equal(idOfDropped('{"method":"x","params":{"id":5,', '..."more"}},"jsonrpc":"2.0","id":9}'), 9);
  assert.equal(
    idOfDropped('{"method":"x","params":{"a":', '"b":{"id":5}}}'),
    undefined,
    'a nested id is not the message id',
  );
  assert.equal(idOfDropped('{"method":"notifications/x","params":{', '"x"}}'), undefined);
});
