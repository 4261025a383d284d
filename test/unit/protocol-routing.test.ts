import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  ListToolsRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { routeByShape } from '../../server/util/protocol-routing.js';

async function connected() {
  const server = new Server({ name: 'routed', version: '1.0.0' }, { capabilities: { tools: {}, logging: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'echo', inputSchema: { type: 'object' as const } }] }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    if (request.params.name !== 'echo') throw new McpError(ErrorCode.InvalidParams, `no tool ${request.params.name}`);
    await server.sendLoggingMessage({ level: 'info', data: 'calling echo' });
    await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: request.params._meta?.progressToken ?? 0, progress: 1, total: 1 } });
    const roots = await server.listRoots();
    return { content: [{ type: 'text' as const, text: `${String(request.params.arguments?.message)} (roots: ${roots.roots.length})` }] };
  });
  const client = new Client({ name: 'routing-test', version: '1.0.0' }, { capabilities: { roots: {} } });
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: 'file:///tmp', name: 'tmp' }] }));
  const logs: unknown[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logs.push(notification.params.data));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  return { server, client, clientSide, serverSide, logs };
}

test('routed by shape, a Server and a Client still exchange requests both ways, results, errors and notifications', async () => {
  const { server, client, clientSide, serverSide, logs } = await connected();
  assert.equal(routeByShape(server, serverSide), true);
  assert.equal(routeByShape(client, clientSide), true);
  try {
    assert.deepEqual((await client.listTools()).tools.map((tool) => tool.name), ['echo']);
    const progress: number[] = [];
    const result = await client.callTool({ name: 'echo', arguments: { message: 'hi' } }, undefined, { onprogress: (event) => void progress.push(event.progress) });
    assert.deepEqual(result.content, [{ type: 'text', text: 'hi (roots: 1)' }]);
    assert.deepEqual(progress, [1], 'the progress notification reached its request');
    assert.deepEqual(logs, ['calling echo']);
    await assert.rejects(client.callTool({ name: 'nope', arguments: {} }), /no tool nope/);
  } finally {
    await client.close();
    await server.close();
  }
});

test('a message that is none of the four kinds goes to onerror, as with the SDK router, and the session goes on', async () => {
  const { server, client, clientSide, serverSide } = await connected();
  routeByShape(server, serverSide);
  const errors: string[] = [];
  server.onerror = (error) => void errors.push(error.message);
  try {
    await clientSide.send({ jsonrpc: '2.0', id: null, method: 'tools/list' } as unknown as JSONRPCMessage);
    await clientSide.send({ jsonrpc: '2.0', id: 5, result: {}, error: { code: 1, message: 'both' } } as unknown as JSONRPCMessage);
    assert.deepEqual(errors, [
      'Unknown message type: not a JSON-RPC 2.0 request, notification or response',
      'Unknown message type: not a JSON-RPC 2.0 request, notification or response',
    ]);
    assert.equal((await client.listTools()).tools.length, 1);
  } finally {
    await client.close();
    await server.close();
  }
});

test('left to the SDK router when the protocol is not connected to that transport or lacks the methods it calls', async () => {
  const { server, client, serverSide } = await connected();
  const [, other] = InMemoryTransport.createLinkedPair();
  try {
    const before = serverSide.onmessage;
    assert.equal(routeByShape(server, other), false);
    assert.equal(routeByShape({ transport: serverSide }, serverSide), false, 'no _onrequest and friends');
    assert.equal(serverSide.onmessage, before);
  } finally {
    await client.close();
    await server.close();
  }
});
