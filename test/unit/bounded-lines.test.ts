import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BoundedLines, idOfDropped } from '../../server/gateway/bounded-lines.js';

test('lines split across chunks come out whole; \\r\\n is accepted', () => {
  const lines = new BoundedLines(100);
  assert.deepEqual(lines.push(Buffer.from('{"a":')), []);
  assert.deepEqual(lines.push(Buffer.from('1}\r\n{"b":2}\n{"c"')), [
    { kind: 'line', text: '{"a":1}' },
    { kind: 'line', text: '{"b":2}' },
  ]);
  assert.deepEqual(lines.push(Buffer.from(':3}\n')), [{ kind: 'line', text: '{"c":3}' }]);
});

test('a line over the limit is dropped as it arrives, holding at most its first and last KB, and the next line is whole', () => {
  const lines = new BoundedLines(64 * 1024);
  const body = JSON.stringify({ method: 'tools/call', params: { arguments: { query: 'x'.repeat(5 * 1024 * 1024) } }, jsonrpc: '2.0', id: 42 });
  const chunk = 64 * 1024;
  const events = [];
  let held = 0;
  for (let at = 0; at < body.length; at += chunk) {
    events.push(...lines.push(Buffer.from(body.slice(at, at + chunk))));
    held = Math.max(held, lines.pending);
  }
  events.push(...lines.push(Buffer.from('\n{"jsonrpc":"2.0","id":43,"method":"ping"}\n')));
  assert.ok(held <= 64 * 1024 + 2048, `held ${held} bytes`);
  assert.equal(events.length, 2);
  const [dropped, next] = events;
  assert.equal(dropped.kind, 'too-long');
  assert.equal(dropped.kind === 'too-long' && dropped.bytes, Buffer.byteLength(body));
  assert.equal(dropped.kind === 'too-long' && idOfDropped(dropped.head, dropped.tail), 42);
  assert.deepEqual(next, { kind: 'line', text: '{"jsonrpc":"2.0","id":43,"method":"ping"}' });
});

test('the id of a dropped message: first keys or last key, never a nested one', () => {
  assert.equal(idOfDropped('{"jsonrpc":"2.0","id":"req-1","method":"x","params":{', ''), 'req-1');
  assert.equal(idOfDropped('{"method":"tools/call","id":7,"params":{', ''), 7);
  assert.equal(idOfDropped('{"method":"x","params":{"id":5,', '..."more"}},"jsonrpc":"2.0","id":9}'), 9);
  assert.equal(idOfDropped('{"method":"x","params":{"a":', '"b":{"id":5}}}'), undefined, 'a nested id is not the message id');
  assert.equal(idOfDropped('{"method":"notifications/x","params":{', '"x"}}'), undefined);
});
