import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  RELATED_TASK_META_KEY,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { routeByShape } from '../../server/util/protocol-routing.js';
import { SessionCallLane, type CallHandler } from '../../server/gateway/session-call-lane.js';
import { abortedWithin, reached, rejection, sleep, text } from '../helpers/call-waits.js';


/** One call of the handler: which path called it (the SDK's extra has sendRequest, the lane's does not). */
interface HandlerCall {
  path: 'lane' | 'server';
  name: string;
  requestId: RequestId;
  signal: AbortSignal;
  finished: Promise<void>;
}

/**
 * A real SDK Server whose tools/call handler is the one given to the lane, and a real Client,
 * over an in-memory pair; the Server routed by shape with the lane first (as mcp-session.ts does),
 * or, with `lane: false`, without it (the SDK's answers, for comparison).
 */
async function connected({ lane: withLane = true } = {}) {
  const server = new Server({ name: 'session-lane', version: '1.0.0' }, { capabilities: { tools: {} } });
  const calls: HandlerCall[] = [];
  const handler: CallHandler = async (request, extra) => {
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    calls.push({ path: 'sendRequest' in extra ? 'server' : 'lane', name: request.params.name, requestId: extra.requestId, signal: extra.signal, finished });
    try {
      const { name } = request.params;
      if (name === 'echo') return text(`echo ${String(request.params.arguments?.message)}`);
      if (name === 'fail') throw new McpError(ErrorCode.InvalidParams, 'bad input', { field: 'message' });
      if (name === 'crash') throw new Error('boom');
      if (name === 'odd-code') throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
      if (name === 'no-content') return { structuredContent: { n: 1 } } as unknown as ReturnType<typeof text>;
      if (name === 'bad-content') return { content: 'not a list' } as unknown as ReturnType<typeof text>;
      if (name === 'hang') {
        await abortedWithin(extra.signal, 1000);
        const progressToken = request.params._meta?.progressToken;
        if (progressToken !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: 99 } });
        return text('late');
      }
      if (name === 'ticks') {
        const progressToken = request.params._meta?.progressToken;
        for (let step = 1; step <= 3 && progressToken !== undefined; step += 1) {
          await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: step, total: 3 } });
        }
        return text('ticked');
      }
      throw new McpError(ErrorCode.InvalidParams, `no tool ${name}`);
    } finally {
      finish();
    }
  };
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'echo', inputSchema: { type: 'object' as const } }] }));
  server.setRequestHandler(CallToolRequestSchema, handler);
  const client = new Client({ name: 'session-lane-test', version: '1.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);

  const sent: JSONRPCMessage[] = [];
  const send = serverSide.send.bind(serverSide);
  serverSide.send = (message, options) => {
    sent.push(message);
    return send(message, options);
  };
  const errors: Error[] = [];
  const lane = new SessionCallLane(serverSide, handler, (error) => void errors.push(error));
  assert.equal(withLane ? routeByShape(server, serverSide, (message, kind) => lane.take(message, kind)) : routeByShape(server, serverSide), true);
  const answerTo = (id: RequestId) => sent.filter((message) => 'id' in message && message.id === id && !('method' in message));
  const close = async () => {
    await client.close();
    await server.close();
  };
  return { server, client, lane, calls, sent, errors, answerTo, close };
}

/** The raw answer the session sends to one tools/call, through the lane or the SDK Server alone. */
async function answerOf(withLane: boolean, params: Record<string, unknown>): Promise<{ answer: JSONRPCMessage[]; paths: string[]; serverErrors: string[] }> {
  const { server, client, calls, answerTo, close } = await connected({ lane: withLane });
  const serverErrors: string[] = [];
  server.onerror = (error) => void serverErrors.push(error.message);
  try {
    await client.request({ method: 'tools/call', params: params as { name: string } }, CallToolResultSchema, { timeout: 150 }).catch(() => undefined);
    return { answer: answerTo(1), paths: calls.map((call) => call.path), serverErrors };
  } finally {
    await close();
  }
}

test('a plain call is answered by the lane with the handler result, as the SDK Server answers it', async () => {
  const { client, calls, close } = await connected();
  try {
    const result = await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
    assert.deepEqual(result, text('echo hi'));
    assert.deepEqual(
      calls.map((call) => [call.path, call.requestId]),
      [['lane', 1]],
      'the lane called the handler, with the request id',
    );
    assert.deepEqual((await client.listTools()).tools.map((tool) => tool.name), ['echo'], 'other requests still reach the Server');
    assert.deepEqual(await client.callTool({ name: 'echo' }), text('echo undefined'), 'absent arguments are a plain call');
    assert.equal(calls.at(-1)?.path, 'lane');
  } finally {
    await close();
  }
  for (const params of [{ name: 'echo', arguments: { message: 'same' } }, { name: 'echo' }]) {
    const byLane = await answerOf(true, params);
    const bySdk = await answerOf(false, params);
    assert.deepEqual(byLane.paths, ['lane']);
    assert.deepEqual(bySdk.paths, ['server']);
    assert.deepEqual(byLane.answer, bySdk.answer, 'the same response on the wire');
  }
});

test('errors thrown by the handler become the response the SDK Server sends: McpError code, message and data; InternalError otherwise', async () => {
  for (const name of ['fail', 'crash', 'odd-code']) {
    const byLane = await answerOf(true, { name, arguments: {} });
    const bySdk = await answerOf(false, { name, arguments: {} });
    assert.deepEqual(byLane.paths, ['lane'], name);
    assert.equal(byLane.answer.length, 1, name);
    assert.deepEqual(byLane.answer, bySdk.answer, `${name}: the same error response on the wire`);
  }
  const { client, close } = await connected();
  try {
    const failed = await rejection(client.callTool({ name: 'fail', arguments: {} }));
    assert.ok(failed instanceof McpError);
    assert.equal(failed.code, ErrorCode.InvalidParams);
    assert.match(failed.message, /bad input/);
    assert.deepEqual(failed.data, { field: 'message' });
    const crashed = await rejection(client.callTool({ name: 'crash', arguments: {} }));
    assert.ok(crashed instanceof McpError);
    assert.equal(crashed.code, ErrorCode.InternalError);
    assert.match(crashed.message, /boom/);
    assert.equal(crashed.data, undefined);
    const odd = await rejection(client.callTool({ name: 'odd-code', arguments: {} }));
    assert.equal((odd as McpError).code, ErrorCode.InternalError, 'a code that is not an integer is not passed on');
  } finally {
    await close();
  }
});

test('a handler result without a content list is completed or refused as the SDK Server does it', async () => {
  for (const name of ['no-content', 'bad-content']) {
    const byLane = await answerOf(true, { name, arguments: {} });
    const bySdk = await answerOf(false, { name, arguments: {} });
    assert.deepEqual(byLane.paths, ['lane'], name);
    assert.equal(byLane.answer.length, 1, name);
    assert.deepEqual(byLane.answer, bySdk.answer, `${name}: the same response on the wire`);
  }
  const completed = await answerOf(true, { name: 'no-content', arguments: {} });
  assert.deepEqual((completed.answer[0] as { result?: unknown }).result, { content: [], structuredContent: { n: 1 } });
  const refused = await answerOf(true, { name: 'bad-content', arguments: {} });
  assert.equal((refused.answer[0] as { error?: { code: number } }).error?.code, ErrorCode.InvalidParams);
});

test('a malformed call (arguments not an object, name not a string) is left to the Server and answered with its schema error', async () => {
  const malformed: Array<Record<string, unknown>> = [{ name: 'echo', arguments: [1, 2] }, { name: 'echo', arguments: null }, { name: 7 }];
  for (const params of malformed) {
    const label = JSON.stringify(params);
    const byLane = await answerOf(true, params);
    const bySdk = await answerOf(false, params);
    assert.deepEqual(byLane.paths, [], `${label}: the handler was not called`);
    assert.equal(byLane.answer.length, 1, label);
    assert.ok('error' in byLane.answer[0]!, `${label}: an error answer`);
    assert.deepEqual(byLane.answer, bySdk.answer, `${label}: the SDK's own error (its schema's text)`);
  }
  const { client, calls, close } = await connected();
  try {
    const error = await rejection(client.request({ method: 'tools/call', params: { name: 'x', arguments: [1, 2] as unknown as Record<string, unknown> } }, CallToolResultSchema));
    // The SDK Protocol's own parse of the request refuses it before its handler: the zod error, answered as InternalError.
    assert.ok(error instanceof McpError);
    assert.equal(error.code, ErrorCode.InternalError);
    assert.match(error.message, /"arguments"/);
    assert.deepEqual(calls, []);
  } finally {
    await close();
  }
});

test('a tools/call whose _meta the request schema refuses is not a request to the lane either: unanswered and reported, as without it', async () => {
  for (const params of [{ name: 'echo', _meta: 5 }, { name: 'echo', _meta: [] }, { name: 'echo', _meta: { progressToken: { not: 'a token' } } }]) {
    const label = JSON.stringify(params);
    const byLane = await answerOf(true, params);
    const bySdk = await answerOf(false, params);
    assert.deepEqual(byLane, bySdk, label);
    assert.deepEqual(byLane.paths, [], `${label}: the handler was not called`);
    assert.deepEqual(byLane.answer, [], `${label}: no answer`);
    assert.equal(byLane.serverErrors.length, 1, `${label}: the Server's onerror heard of it`);
  }
});

test('take leaves a task call, a related-task call, other methods and unknown cancellations to the Server', async () => {
  const { lane, calls, close } = await connected();
  try {
    const request = (params: Record<string, unknown>, method = 'tools/call') => ({ jsonrpc: '2.0', id: 99, method, params }) as JSONRPCMessage;
    assert.equal(lane.take(request({ name: 'echo', task: { ttl: 1000 } }), 'request'), false, 'a task call');
    assert.equal(lane.take(request({ name: 'echo', _meta: { [RELATED_TASK_META_KEY]: { taskId: 't1' } } }), 'request'), false, 'a related-task call');
    assert.equal(lane.take(request({}, 'tools/list'), 'request'), false, 'another method');
    assert.equal(lane.take({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 42 } } as JSONRPCMessage, 'notification'), false, 'a cancellation of a request the lane does not run');
    assert.equal(lane.take({ jsonrpc: '2.0', id: 5, result: {} } as JSONRPCMessage, 'result'), false, 'a response');
    assert.deepEqual(calls, []);
  } finally {
    await close();
  }
});

test('a client abort cancels the call: the handler signal aborts and no response is sent for it', async () => {
  const { client, calls, sent, answerTo, errors, close } = await connected();
  try {
    const controller = new AbortController();
    const call = client.callTool({ name: 'hang', arguments: {} }, undefined, { signal: controller.signal, timeout: 1000, onprogress: () => undefined });
    await reached(calls, 1, 'the handler was called');
    controller.abort();
    await rejection(call);
    const [hang] = calls;
    assert.equal(hang!.path, 'lane');
    assert.equal(await abortedWithin(hang!.signal, 500), true, 'notifications/cancelled aborted the handler signal');
    await hang!.finished;
    await sleep(20);
    assert.deepEqual(answerTo(hang!.requestId), [], 'the handler returned, and its answer was not sent');
    assert.deepEqual(
      sent.filter((message) => 'method' in message && message.method === 'notifications/progress'),
      [],
      'nor the progress it reported once cancelled',
    );
    assert.deepEqual(errors, []);
    assert.deepEqual(await client.callTool({ name: 'echo', arguments: { message: 'after' } }), text('echo after'));
  } finally {
    await close();
  }
});

test("progress sent with extra.sendNotification reaches the client's onprogress", async () => {
  const { client, calls, sent, close } = await connected();
  try {
    const progress: Array<Record<string, unknown>> = [];
    const result = await client.callTool({ name: 'ticks', arguments: {} }, undefined, { onprogress: (event) => void progress.push({ ...event }) });
    assert.deepEqual(result, text('ticked'));
    assert.equal(calls[0]?.path, 'lane');
    assert.deepEqual(progress, [
      { progress: 1, total: 3 },
      { progress: 2, total: 3 },
      { progress: 3, total: 3 },
    ]);
    assert.equal(sent.filter((message) => 'method' in message && message.method === 'notifications/progress').length, 3);
  } finally {
    await close();
  }
});

test('lane.close() aborts running handlers, whose answers are then not sent', async () => {
  const { client, lane, calls, answerTo, close } = await connected();
  try {
    const pending = [client.callTool({ name: 'hang', arguments: {} }, undefined, { timeout: 1000 }), client.callTool({ name: 'hang', arguments: {} }, undefined, { timeout: 1000 })];
    await reached(calls, 2, 'the handler was called');
    lane.close();
    for (const call of calls) {
      assert.equal(call.path, 'lane');
      assert.equal(call.signal.aborted, true);
      await call.finished;
    }
    await sleep(20);
    assert.deepEqual(
      calls.flatMap((call) => answerTo(call.requestId)),
      [],
    );
    await client.close();
    for (const call of pending) assert.equal(((await rejection(call)) as McpError).code, ErrorCode.ConnectionClosed);
  } finally {
    await close();
  }
});

test('an answer the transport cannot send is reported to onerror, whether send rejects or throws, and the call stops running', async () => {
  // A transport reduced to its send: what the SDK's transports do (reject) and what a plain function may do (throw).
  const failures: Array<[string, () => Promise<void>]> = [
    ['rejects', () => Promise.reject(new Error('pipe closed'))],
    [
      'throws',
      () => {
        throw new Error('pipe closed');
      },
    ],
  ];
  for (const [how, send] of failures) {
    const errors: Error[] = [];
    const transport = { send, start: async () => undefined, close: async () => undefined };
    const lane = new SessionCallLane(transport, async () => text('ok'), (error) => void errors.push(error));
    const request = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: {} } } as JSONRPCMessage;
    assert.equal(lane.take(request, 'request'), true, how);
    await sleep(10);
    assert.deepEqual(
      errors.map((error) => error.message),
      ['Failed to send response: Error: pipe closed'],
      how,
    );
    const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } } as JSONRPCMessage;
    assert.equal(lane.take(cancel, 'notification'), false, `${how}: a finished call is no longer running`);
  }
});
