import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  LATEST_PROTOCOL_VERSION,
  ListToolsRequestSchema,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { EarlyAnswersTransport } from '../../server/gateway/sessions/early-answers.js';
import { GATEWAY_TOOLS } from '../../server/gateway/gateway-tools.js';
import { GATEWAY_INSTRUCTIONS, SERVER_INFO, SESSION_CAPABILITIES } from '../../server/gateway/sessions/session-info.js';

/** The result of an answer (the test fails on an error answer). */
function resultOf<T>(message: JSONRPCMessage | undefined): T {
  assert.ok(message && 'result' in message, JSON.stringify(message));
  return message.result as T;
}

const initialize = (id: number, protocolVersion: string): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: { sampling: {} }, clientInfo: { name: 'early-test', version: '1.0.0' } },
});

/** A server configured as createMcpSession configures its own. */
function sessionServer(): Server {
  const server = new Server(SERVER_INFO, { capabilities: SESSION_CAPABILITIES, instructions: GATEWAY_INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: 'from_session', inputSchema: { type: 'object' as const } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => ({
    content: [{ type: 'text' as const, text: `called ${request.params.name}` }],
  }));
  return server;
}

async function setup() {
  const [client, inner] = InMemoryTransport.createLinkedPair();
  const received: JSONRPCMessage[] = [];
  client.onmessage = (message) => void received.push(message);
  await client.start();
  let needed = 0;
  const early = new EarlyAnswersTransport(inner, { tools: GATEWAY_TOOLS, needed: () => void (needed += 1) });
  await early.listen();
  // Everything here is in memory, answered on promises: one turn of the event loop settles it.
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return { client, early, received, needed: () => needed, settle };
}

test('initialize is answered as the session server answers it, for a supported and an unknown protocol version', async () => {
  for (const version of ['2025-03-26', '1999-01-01']) {
    const reference = sessionServer();
    const [refClient, refServer] = InMemoryTransport.createLinkedPair();
    const refAnswers: JSONRPCMessage[] = [];
    refClient.onmessage = (message) => void refAnswers.push(message);
    await refClient.start();
    await reference.connect(refServer);
    await refClient.send(initialize(1, version));

    const { client, received, settle, needed } = await setup();
    await client.send(initialize(1, version));
    await settle();
    assert.deepEqual(received, refAnswers, `protocol ${version}`);
    assert.equal(
      resultOf<{ protocolVersion: string }>(received[0]).protocolVersion,
      version === '1999-01-01' ? LATEST_PROTOCOL_VERSION : version,
    );
    assert.equal(needed(), 0, 'initialize alone does not build the gateway');
    await reference.close();
  }
});

test(
  'tools/list is answered with the given tools; held requests reach the session in order, ' +
    'initialize is not answered twice',
  async () => {
    const { client, early, received, settle, needed } = await setup();
    await client.send(initialize(1, LATEST_PROTOCOL_VERSION));
    await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await client.send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
    await settle();
    assert.equal(received.length, 2);
    assert.deepEqual(resultOf<{ tools: unknown[] }>(received[1]).tools, GATEWAY_TOOLS);
    assert.equal(needed(), 1, 'the first tools/list asks for the gateway');
    assert.equal(early.listsAnswered, 1);

    await client.send({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'resolve_intent', arguments: { query: 'x' } },
    });
    await client.send({ jsonrpc: '2.0', id: 4, method: 'ping' });
    await settle();
    assert.equal(received.length, 2, 'held until the session is attached');

    const server = sessionServer();
    await server.connect(early);
    await settle();
    assert.deepEqual(
      received.slice(2).map((m) => (m as { id: number }).id),
      [3, 4],
      'the held requests were answered once each, and initialize not again',
    );
    assert.deepEqual(resultOf<unknown>(received[2]), { content: [{ type: 'text', text: 'called resolve_intent' }] });
    assert.equal(
      server.getClientVersion()?.name,
      'early-test',
      'the session knows the client from the replayed initialize',
    );
    assert.ok(server.getClientCapabilities()?.sampling);

    await client.send({ jsonrpc: '2.0', id: 5, method: 'tools/list', params: {} });
    await settle();
    assert.deepEqual(
      resultOf<{ tools: Array<{ name: string }> }>(received.at(-1)).tools.map((t) => t.name),
      ['from_session'],
      'after attach, the session answers',
    );
    assert.equal(needed(), 1);
    await server.close();
  },
);

test('a request before initialize, or any request but tools/list, is held and asks for the gateway', async () => {
  const { client, received, settle, needed } = await setup();
  await client.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
  await settle();
  assert.equal(received.length, 0, 'tools/list before initialize is left to the session');
  assert.equal(needed(), 1);
});

test('an invalid initialize is left to the session, which answers it with an error', async () => {
  const { client, early, received, settle } = await setup();
  await client.send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: 7 },
  } as unknown as JSONRPCMessage);
  await settle();
  assert.equal(received.length, 0);
  const server = sessionServer();
  await server.connect(early);
  await settle();
  assert.equal(received.length, 1);
  assert.ok('error' in received[0]!, JSON.stringify(received[0]));
  await server.close();
});
