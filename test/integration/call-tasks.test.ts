import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as readline from 'node:readline';
import { Store } from '../../server/store/store.js';
import { fixtureHome, fixtureSpell, type FixtureHome } from '../helpers/fixture-gateway.js';
import { isAlive, waitFor } from '../helpers/gateway-process.js';
import { cliPath, writeSpell } from '../helpers/temp.js';

/**
 * Long calls as tasks (the `io.modelcontextprotocol/tasks` extension): a raw 2026-07-28 client over
 * stdio, JSON lines written by hand, and a real slow power (test/fixtures/servers/cancel-probe-server.ts
 * as `probe`). With `sessions.taskAfterMs` 300 ms, a call that declares the extension and outlasts it
 * is answered with a task; `tasks/get` follows it to its result; `tasks/cancel` cancels the power's call.
 */
const MODERN = '2026-07-28';
const TASKS = 'io.modelcontextprotocol/tasks';
let fixture: FixtureHome;
let child: ChildProcess;
const waiting = new Map<number, (message: Record<string, unknown>) => void>();
let nextId = 1;

function envelope(extensions?: Record<string, unknown>): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientInfo': { name: 'raw-tasks', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': extensions ? { extensions } : {},
  };
}

function request(
  method: string,
  params: Record<string, unknown> = {},
  extensions: Record<string, unknown> | undefined = { [TASKS]: {} },
): Promise<Record<string, unknown>> {
  const id = nextId++;
  const answered = new Promise<Record<string, unknown>>((resolve) => waiting.set(id, resolve));
  child.stdin!.write(
    `${JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: envelope(extensions) } })}\n`,
  );
  return answered;
}

async function result(
  method: string,
  params: Record<string, unknown> = {},
  extensions?: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const answer = await request(method, params, ...(extensions === undefined ? [] : [extensions]));
  assert.ok(answer.result, `${method} answered ${JSON.stringify(answer.error)}`);
  return answer.result as Record<string, unknown>;
}

const call = (tool: string, args: Record<string, unknown>, extensions?: Record<string, unknown>) =>
  result(
    'tools/call',
    { name: 'call_tool_write', arguments: { name: `probe:${tool}`, args, intent: { operation_type: 'write' } } },
    extensions,
  );

const textOf = (callResult: Record<string, unknown>) =>
  (callResult.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');

async function settled(taskId: string): Promise<Record<string, unknown>> {
  let task = await result('tasks/get', { taskId });
  for (let polls = 0; !['completed', 'failed', 'cancelled'].includes(String(task.status)) && polls < 100; polls++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    task = await result('tasks/get', { taskId });
  }
  return task;
}

before(() => {
  fixture = fixtureHome({ sessions: { taskAfterMs: 300 } });
  writeSpell(
    fixture.spells,
    'probe',
    fixtureSpell('probe', 'cancel-probe-server', {
      description: 'Answers after a while, or waits until cancelled.',
      keywords: ['ticks', 'wait', 'cancel'],
    }),
  );
  child = spawn(process.execPath, [cliPath, 'serve', '--stdio', '--spells', fixture.spells, '--no-imports'], {
    env: fixture.env,
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  readline.createInterface({ input: child.stdout! }).on('line', (line) => {
    const message = JSON.parse(line) as Record<string, unknown>;
    if (typeof message.id === 'number') waiting.get(message.id)?.(message);
  });
});

after(() => {
  if (isAlive(child.pid!)) child.kill();
  fixture.home.cleanup();
});

test('server/discover offers the tasks extension', async () => {
  const discovered = await result('server/discover');
  const capabilities = discovered.capabilities as { extensions?: Record<string, unknown> };
  assert.ok(capabilities.extensions && TASKS in capabilities.extensions, JSON.stringify(capabilities));
});

test(
  'a call that outlasts the bound is answered with a task, and tasks/get gives its result once it ends',
  { timeout: 30_000 },
  async () => {
    const first = await call('ticks', { count: 6, every: 250 });
    assert.equal(first.resultType, 'task', JSON.stringify(first));
    assert.equal(first.status, 'working');
    assert.equal(typeof first.taskId, 'string');
    assert.equal(typeof first.pollIntervalMs, 'number');
    const polled = await result('tasks/get', { taskId: first.taskId });
    assert.equal(polled.resultType, 'complete');
    assert.equal(polled.taskId, first.taskId);
    const ended = await settled(String(first.taskId));
    assert.equal(ended.status, 'completed', JSON.stringify(ended));
    const answer = ended.result as Record<string, unknown>;
    assert.notEqual(answer.isError, true, JSON.stringify(answer));
    assert.match(textOf(answer), /ticked 6/);
  },
);

test('a call of a client without the extension waits for its result as before', { timeout: 30_000 }, async () => {
  const answer = await call('ticks', { count: 3, every: 250 }, {});
  assert.equal(answer.resultType, 'complete', JSON.stringify(answer));
  assert.match(textOf(answer), /ticked 3/);
});

test('a quick call of a client with the extension is answered at once, not as a task', async () => {
  const answer = await call('was_cancelled', {});
  assert.equal(answer.resultType, 'complete', JSON.stringify(answer));
});

test("tasks/cancel cancels the power's call; the task ends cancelled", { timeout: 30_000 }, async () => {
  const before = textOf(await call('was_cancelled', {}));
  const first = await call('wait', {});
  assert.equal(first.resultType, 'task', JSON.stringify(first));
  assert.deepEqual(
    Object.keys(await result('tasks/cancel', { taskId: first.taskId })).filter(
      (k) => k !== '_meta' && k !== 'resultType',
    ),
    [],
  );
  assert.equal((await result('tasks/get', { taskId: first.taskId })).status, 'cancelled');
  await waitFor(
    async () => textOf(await call('was_cancelled', {})) !== before,
    10_000,
    'the power to see the cancellation',
  );
  assert.match(textOf(await call('was_cancelled', {})), /cancelled: 1/);
});

test('a handle the gateway did not mint is unknown on every method', async () => {
  for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
    const answer = await request(method, { taskId: 'not-a-task', inputResponses: {} });
    assert.equal((answer.error as { code: number } | undefined)?.code, -32602, `${method}: ${JSON.stringify(answer)}`);
  }
});

test('the activity log records the outcome of calls answered as tasks', { timeout: 30_000 }, async () => {
  child.stdin!.end();
  child.kill();
  await waitFor(() => !isAlive(child.pid!), 10_000, 'the gateway to exit');
  const store = await Store.open({ dataDir: fixture.env.GRIMOIRE_DATA! });
  try {
    const rows = store.query<{ tool: string; status: string; error: string | null; latency_ms: number }>(
      "SELECT tool, status, error, latency_ms FROM activity WHERE power = 'probe' AND tool IN ('ticks', 'wait') ORDER BY at",
    );
    const ticks = rows.filter((r) => r.tool === 'ticks');
    assert.equal(ticks.length, 2, JSON.stringify(rows));
    assert.ok(
      ticks.every((r) => r.status === 'ok'),
      JSON.stringify(rows),
    );
    assert.ok(ticks[0].latency_ms >= 1000, `the task's record has the call's whole time: ${ticks[0].latency_ms} ms`);
    const waits = rows.filter((r) => r.tool === 'wait');
    assert.equal(waits.length, 1, JSON.stringify(rows));
    assert.equal(
      waits[0].status,
      'error',
      `the cancelled task's call is recorded as not ok: ${JSON.stringify(waits[0])}`,
    );
    assert.match(String(waits[0].error), /cancel/i);
  } finally {
    store.close();
  }
});
