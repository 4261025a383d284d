import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InMemoryTransport, PROTOCOL_VERSION_META_KEY, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { OpeningTransport } from '../../server/gateway/sessions/opening-transport.js';
import { opensLegacy } from '../../server/gateway/sessions/stdio-sessions.js';

const initialize = (meta?: Record<string, unknown>): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'opening-test', version: '1.0.0' },
    ...(meta ? { _meta: meta } : {}),
  },
});
const call = (id: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'echo', arguments: { n: id } },
});

test(
  'the first message is shown once; it and those after it wait for release, ' +
    'then arrive in order and pass straight through',
  async () => {
    const [client, wire] = InMemoryTransport.createLinkedPair();
    await client.start();
    const firsts: JSONRPCMessage[] = [];
    const opening = new OpeningTransport(wire, (first) => void firsts.push(first));
    const read: JSONRPCMessage[] = [];
    opening.onmessage = (message) => void read.push(message);
    await opening.listen();
    await client.send(initialize());
    await client.send(call(2));
    await opening.start();
    assert.deepEqual(firsts, [initialize()]);
    assert.deepEqual(read, [], 'nothing is read before release, start included');
    opening.release();
    assert.deepEqual(read, [initialize(), call(2)]);
    await client.send(call(3));
    assert.deepEqual(read, [initialize(), call(2), call(3)], 'after release a message goes to the reader at once');
    assert.equal(firsts.length, 1);

    const answers: JSONRPCMessage[] = [];
    client.onmessage = (message) => void answers.push(message);
    await opening.send({ jsonrpc: '2.0', id: 2, result: { content: [] } });
    assert.deepEqual(answers, [{ jsonrpc: '2.0', id: 2, result: { content: [] } }], 'sends go to the wire');
    let closed = 0;
    opening.onclose = () => void (closed += 1);
    await opening.close();
    assert.equal(closed, 1, "the wire's close reaches the reader");
  },
);

test('a connection opens in the 2025 era by itself only with an initialize that claims no protocol version in _meta', () => {
  assert.equal(opensLegacy(initialize()), true);
  assert.equal(
    opensLegacy(
      initialize({ progressToken: 1, traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' }),
    ),
    true,
  );
  assert.equal(
    opensLegacy(initialize({ [PROTOCOL_VERSION_META_KEY]: '2026-07-28' })),
    false,
    'a claim is for the SDK entry to judge',
  );
  assert.equal(opensLegacy(initialize({ [PROTOCOL_VERSION_META_KEY]: '2025-11-25' })), false);
  assert.equal(
    opensLegacy({
      jsonrpc: '2.0',
      id: 1,
      method: 'server/discover',
      params: { _meta: { [PROTOCOL_VERSION_META_KEY]: '2026-07-28' } },
    }),
    false,
  );
  assert.equal(opensLegacy(call(1)), false, 'a request other than initialize');
  assert.equal(
    opensLegacy({ jsonrpc: '2.0', method: 'initialize', params: {} }),
    false,
    'a notification named initialize',
  );
  assert.equal(opensLegacy({ jsonrpc: '2.0', id: 1, result: {} }), false);
});
