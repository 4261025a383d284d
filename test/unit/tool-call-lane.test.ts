import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type JSONRPCMessage, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { routeByShape } from '../../server/util/protocol-routing.js';
import { ToolCallLane } from '../../server/upstream/tool-call-lane.js';
import { Cancellation } from '../../server/util/cancellation.js';
import { abortedWithin, reached, rejection, sleep, text } from '../helpers/call-waits.js';


/**
 * A real SDK Server and Client over an in-memory pair, the Client routed as connection.ts routes
 * it: by shape, the lane first, the lane closed from client.onclose.
 */
async function connected({ stringIds = false } = {}) {
  const server = new Server({ name: 'lane-server', version: '1.0.0' }, { capabilities: { tools: {} } });
  const started: AbortSignal[] = [];
  const gates: Array<() => void> = [];
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      { name: 'echo', inputSchema: { type: 'object' as const } },
      { name: 'shaped', inputSchema: { type: 'object' as const }, outputSchema: { type: 'object' as const, properties: { n: { type: 'number' } } } },
      { name: 'tasked', inputSchema: { type: 'object' as const }, execution: { taskSupport: 'required' as const } },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    started.push(extra.signal);
    if (name === 'echo') return text(`echo ${String(args.message)}`);
    if (name === 'gate') {
      await new Promise<void>((resolve) => gates.push(resolve));
      return text(`gate ${String(args.n)}`);
    }
    if (name === 'fail') throw new McpError(ErrorCode.InvalidParams, 'bad input', { field: 'message' });
    if (name === 'malformed') return text('MALFORMED');
    if (name === 'hang') {
      await abortedWithin(extra.signal, 1000);
      return text('hang over');
    }
    if (name === 'ticks') {
      const token = request.params._meta?.progressToken;
      for (let step = 1; step <= 8 && !extra.signal.aborted; step += 1) {
        await sleep(50);
        if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: step, total: 8 } });
      }
      return text('ticked');
    }
    throw new McpError(ErrorCode.InvalidParams, `no tool ${name}`);
  });
  const client = new Client({ name: 'lane-test', version: '1.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);

  const requests: Array<{ id: unknown; method: string }> = [];
  const cancelled: unknown[] = [];
  const receive = serverSide.onmessage!;
  serverSide.onmessage = (message, extra) => {
    const m = message as { id?: unknown; method?: string; params?: { requestId?: unknown } };
    if (m.method === 'notifications/cancelled') cancelled.push(m.params?.requestId);
    else if (m.method && m.id !== undefined) requests.push({ id: m.id, method: m.method });
    receive(message, extra);
  };
  // A malformed result can only come from a server that does not check its own: rewritten on its way out.
  const send = serverSide.send.bind(serverSide);
  serverSide.send = (message, options) => {
    const result = (message as { result?: { content?: Array<{ text?: string }> } }).result;
    let rewritten = result?.content?.[0]?.text === 'MALFORMED' ? ({ ...message, result: { content: 'not an array' } } as JSONRPCMessage) : message;
    if (stringIds) rewritten = withStringIds(rewritten);
    return send(rewritten, options);
  };

  const lane = ToolCallLane.for(client, clientSide);
  assert.ok(lane, 'this SDK has what the lane relies on');
  assert.equal(
    routeByShape(client, clientSide, (message, kind) => lane.take(message, kind)),
    true,
  );
  client.onclose = () => lane.close();
  const openGates = () => gates.splice(0).forEach((open) => open());
  const close = async () => {
    openGates();
    await client.close();
    await server.close();
  };
  return { server, client, lane, requests, cancelled, started, gates, openGates, close };
}

/** A response's numeric id, and a progress notification's numeric token, as strings (a server that stringifies what it echoes). */
function withStringIds(message: JSONRPCMessage): JSONRPCMessage {
  const m = message as { id?: unknown; method?: string; params?: { progressToken?: unknown } };
  if (m.method === undefined && typeof m.id === 'number') return { ...message, id: String(m.id) } as JSONRPCMessage;
  if (m.method === 'notifications/progress' && typeof m.params?.progressToken === 'number') {
    return { ...message, params: { ...m.params, progressToken: String(m.params.progressToken) } } as JSONRPCMessage;
  }
  return message;
}

test('ToolCallLane.for gives a lane for the installed SDK Client, which serves a plain tool and leaves output schemas and required tasks to the Client', async () => {
  const { client, lane, close } = await connected();
  try {
    assert.equal(ToolCallLane.for({} as Client, client.transport!), undefined, 'no lane for an object without the Client members');
    assert.equal(lane.serves('echo'), true);
    await client.listTools();
    assert.equal(lane.serves('echo'), true, 'a listed tool without output schema or required task');
    assert.equal(lane.serves('shaped'), false, 'the Client validates its structured content');
    assert.equal(lane.serves('tasked'), false, 'the Client refuses a plain call to a required-task tool');
    assert.equal(lane.serves('unlisted'), true);
  } finally {
    await close();
  }
});

test('a lane call resolves with the same result client.callTool gets', async () => {
  const { client, lane, requests, close } = await connected();
  try {
    const byLane = await lane.call('echo', { message: 'hi' }, { timeout: 1000 });
    const byClient = await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
    assert.deepEqual(byLane, { content: [{ type: 'text', text: 'echo hi' }] });
    assert.deepEqual(byLane, byClient);
    assert.deepEqual(
      requests.map((request) => request.method),
      ['tools/call', 'tools/call'],
      'the lane call reached the server as a tools/call',
    );
  } finally {
    await close();
  }
});

test('lane calls take the next ids of the Client sequence, interleaved with the Client own requests, and each answer reaches its caller', async () => {
  const { client, lane, requests, started, openGates, close } = await connected();
  try {
    const first = lane.call('gate', { n: 1 }, { timeout: 1000 });
    const listed = client.listTools();
    const second = client.callTool({ name: 'gate', arguments: { n: 2 } });
    const third = lane.call('gate', { n: 3 }, { timeout: 1000 });
    const echoed = client.callTool({ name: 'echo', arguments: { message: 'between' } });
    await reached(started, 4, 'the handler was called');
    openGates();
    assert.deepEqual(await first, text('gate 1'));
    assert.deepEqual((await listed).tools.map((tool) => tool.name), ['echo', 'shaped', 'tasked']);
    assert.deepEqual(await second, text('gate 2'));
    assert.deepEqual(await third, text('gate 3'));
    assert.deepEqual(await echoed, text('echo between'));
    const ids = requests.map((request) => request.id);
    assert.deepEqual(ids, [1, 2, 3, 4, 5], 'one sequence after initialize (id 0), no id used twice');
    assert.deepEqual(
      requests.map((request) => request.method),
      ['tools/call', 'tools/list', 'tools/call', 'tools/call', 'tools/call'],
    );
    assert.deepEqual(await lane.call('echo', { message: 'next' }, { timeout: 1000 }), text('echo next'));
    assert.equal(requests.at(-1)?.id, 6);
  } finally {
    await close();
  }
});

test('an McpError thrown by the server handler rejects the lane call as an McpError with the code, message and data client.callTool gets', async () => {
  const { client, lane, close } = await connected();
  try {
    const byLane = await rejection(lane.call('fail', {}, { timeout: 1000 }));
    const byClient = await rejection(client.callTool({ name: 'fail', arguments: {} }));
    assert.ok(byLane instanceof McpError);
    assert.ok(byClient instanceof McpError);
    assert.equal(byLane.code, ErrorCode.InvalidParams);
    assert.match(byLane.message, /bad input/);
    assert.deepEqual(byLane.data, { field: 'message' });
    assert.deepEqual([byLane.code, byLane.message, byLane.data], [byClient.code, byClient.message, byClient.data]);
  } finally {
    await close();
  }
});

test('a malformed result (content not an array) rejects the lane call, as it rejects client.callTool', async () => {
  const { client, lane, close } = await connected();
  try {
    const byLane = await rejection(lane.call('malformed', {}, { timeout: 1000 }));
    const byClient = await rejection(client.callTool({ name: 'malformed', arguments: {} }));
    assert.ok(byLane instanceof Error);
    assert.match(byLane.message, /"content"/);
    // The Client parses with zod's core safeParse ($ZodError), the lane with the schema's own (ZodError): the same text and issues.
    assert.equal(byLane.message, (byClient as Error).message);
    assert.deepEqual((byLane as Error & { issues: unknown }).issues, (byClient as Error & { issues: unknown }).issues);
  } finally {
    await close();
  }
});

test('past its timeout a lane call rejects with McpError RequestTimeout and the server handler is cancelled', async () => {
  const { client, lane, cancelled, started, close } = await connected();
  try {
    const byLane = await rejection(lane.call('hang', {}, { timeout: 100 }));
    assert.ok(byLane instanceof McpError);
    assert.equal(byLane.code, ErrorCode.RequestTimeout);
    assert.deepEqual(byLane.data, { timeout: 100 });
    assert.equal(await abortedWithin(started[0]!, 500), true, 'notifications/cancelled reached the server and aborted its handler');
    assert.deepEqual(cancelled, [1]);
    const byClient = await rejection(client.callTool({ name: 'hang', arguments: {} }, undefined, { timeout: 100 }));
    assert.deepEqual([byLane.code, byLane.message], [(byClient as McpError).code, (byClient as McpError).message]);
    // The lane goes on after a timeout.
    assert.deepEqual(await lane.call('echo', { message: 'after' }, { timeout: 1000 }), text('echo after'));
  } finally {
    await close();
  }
});

test("a cancellation fired mid-call rejects the lane call as client.callTool's abort signal does and aborts the server handler", async () => {
  const { client, lane, cancelled, started, close } = await connected();
  try {
    const cancellation = new Cancellation();
    const call = lane.call('hang', {}, { timeout: 1000, cancellation });
    await reached(started, 1, 'the handler was called');
    cancellation.abort();
    const byLane = await rejection(call);
    assert.equal(await abortedWithin(started[0]!, 500), true, 'the server handler saw the cancellation');
    assert.deepEqual(cancelled, [1]);

    const clientController = new AbortController();
    const viaClient = client.callTool({ name: 'hang', arguments: {} }, undefined, { timeout: 1000, signal: clientController.signal });
    await reached(started, 2, 'the handler was called');
    clientController.abort();
    const byClient = await rejection(viaClient);
    assert.ok(byLane instanceof McpError);
    assert.deepEqual([byLane.code, byLane.message], [(byClient as McpError).code, (byClient as McpError).message]);
  } finally {
    await close();
  }
});

test('a call cancelled before it starts (following a signal aborted already) rejects with the reason and sends nothing', async () => {
  const { lane, requests, close } = await connected();
  try {
    const reason = new Error('gave up early');
    assert.equal(await rejection(lane.call('echo', {}, { timeout: 1000, cancellation: Cancellation.following(AbortSignal.abort(reason)) })), reason);
    await sleep(20);
    assert.deepEqual(requests, []);
  } finally {
    await close();
  }
});

test('progress reaches onprogress without its token, and with resetTimeoutOnProgress keeps a call longer than its timeout alive', async () => {
  const { lane, started, close } = await connected();
  try {
    const progress: Progress[] = [];
    const result = await lane.call('ticks', {}, { timeout: 150, onprogress: (event) => void progress.push(event), resetTimeoutOnProgress: true });
    assert.deepEqual(result, text('ticked'));
    assert.deepEqual(progress.map((event) => event.progress), [1, 2, 3, 4, 5, 6, 7, 8], 'about 400 ms in all, progress every 50 ms');
    assert.deepEqual(progress[0], { progress: 1, total: 8 });
    assert.ok(progress.every((event) => !('progressToken' in event)));

    const unrefreshed: Progress[] = [];
    const timedOut = await rejection(lane.call('ticks', {}, { timeout: 150, onprogress: (event) => void unrefreshed.push(event) }));
    assert.equal((timedOut as McpError).code, ErrorCode.RequestTimeout, 'without resetTimeoutOnProgress the same call times out');
    assert.ok(unrefreshed.length >= 1 && unrefreshed.length < 8, `progress until the timeout: ${unrefreshed.length}`);
    assert.equal(await abortedWithin(started[1]!, 500), true);
  } finally {
    await close();
  }
});

test('a call without onprogress asks for no progress', async () => {
  const { lane, close } = await connected();
  try {
    // ticks sends progress only when the request carries a progress token; it still answers.
    assert.deepEqual(await lane.call('ticks', {}, { timeout: 1000 }), text('ticked'));
  } finally {
    await close();
  }
});

test('closing the connection (client.onclose, as connection.ts wires it) rejects a waiting lane call with McpError ConnectionClosed', async () => {
  const { client, lane, started, close } = await connected();
  try {
    const call = lane.call('hang', {}, { timeout: 1000 });
    await reached(started, 1, 'the handler was called');
    await client.close();
    const error = await rejection(call);
    assert.ok(error instanceof McpError);
    assert.equal(error.code, ErrorCode.ConnectionClosed);
  } finally {
    await close();
  }
});

test('lane.close() rejects every waiting call with McpError ConnectionClosed', async () => {
  const { lane, started, close } = await connected();
  try {
    const calls = [lane.call('hang', {}, { timeout: 1000 }), lane.call('hang', {}, { timeout: 1000 })];
    await reached(started, 2, 'the handler was called');
    lane.close();
    for (const call of calls) {
      const error = await rejection(call);
      assert.ok(error instanceof McpError);
      assert.equal(error.code, ErrorCode.ConnectionClosed);
    }
  } finally {
    await close();
  }
});

test('a server that echoes ids and progress tokens as strings: the lane answers and passes progress on as client.callTool does', async () => {
  const { client, lane, close } = await connected({ stringIds: true });
  try {
    const clientProgress: number[] = [];
    assert.deepEqual(await client.callTool({ name: 'ticks', arguments: {} }, undefined, { timeout: 1000, onprogress: (event) => void clientProgress.push(event.progress) }), text('ticked'));
    assert.deepEqual(clientProgress, [1, 2, 3, 4, 5, 6, 7, 8], 'the SDK Client takes "5" for 5');
    const laneProgress: number[] = [];
    assert.deepEqual(await lane.call('ticks', {}, { timeout: 1000, onprogress: (event) => void laneProgress.push(event.progress) }), text('ticked'));
    assert.deepEqual(laneProgress, clientProgress);
    assert.deepEqual(await lane.call('echo', { message: 'hi' }, { timeout: 1000 }), text('echo hi'));
  } finally {
    await close();
  }
});
