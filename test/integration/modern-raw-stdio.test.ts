import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { gatewayEnv } from '../helpers/gateway-process.js';
import { cliPath, tempDir } from '../helpers/temp.js';

/**
 * A raw 2026-07-28 client over stdio on the demo powers, JSON lines written by hand: no
 * `initialize`, the version and capabilities in every request's `_meta`.
 */
const MODERN = '2026-07-28';
let home: { dir: string; cleanup: () => void };
let child: ChildProcess;
const waiting = new Map<number, (message: Record<string, unknown>) => void>();
let nextId = 1;
const notifications: Array<{ method: string; params?: { _meta?: Record<string, unknown> } }> = [];

function envelope(version = MODERN): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientInfo': { name: 'raw-modern', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
}

function request(
  method: string,
  params: Record<string, unknown> = {},
  version?: string,
): Promise<Record<string, unknown>> {
  const id = nextId++;
  const answered = new Promise<Record<string, unknown>>((resolve) => waiting.set(id, resolve));
  child.stdin!.write(
    `${JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: envelope(version) } })}\n`,
  );
  return answered;
}

async function result(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const answer = await request(method, params);
  assert.ok(answer.result, `${method} answered ${JSON.stringify(answer.error)}`);
  return answer.result as Record<string, unknown>;
}

const textOf = (callResult: Record<string, unknown>) =>
  JSON.parse((callResult.content as Array<{ text: string }>)[0].text) as Record<string, unknown>;

before(() => {
  home = tempDir();
  child = spawn(process.execPath, [cliPath, 'serve', '--stdio', '--demo'], {
    env: gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') }),
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  readline.createInterface({ input: child.stdout! }).on('line', (line) => {
    const message = JSON.parse(line) as Record<string, unknown>;
    if (typeof message.id === 'number') waiting.get(message.id)?.(message);
    else if (typeof message.method === 'string') notifications.push(message as (typeof notifications)[number]);
  });
});

after(() => {
  child.stdin!.end();
  child.kill();
  home.cleanup();
});

test('server/discover names 2026-07-28 and carries the gateway instructions', async () => {
  const discovered = await result('server/discover');
  assert.ok((discovered.supportedVersions as string[]).includes(MODERN), JSON.stringify(discovered.supportedVersions));
  assert.equal(discovered.resultType, 'complete');
  assert.match(String(discovered.instructions), /resolve_intent/);
});

test('an unsupported version is refused with -32022 and the supported list', async () => {
  const answer = await request('tools/list', {}, '2099-01-01');
  const error = answer.error as { code: number; data?: { supported?: string[] } };
  assert.equal(error.code, -32022);
  assert.ok(error.data?.supported?.includes(MODERN), JSON.stringify(error));
});

test('tools/list carries resultType, ttlMs and cacheScope, and resolve_intent and activate_power leave it unchanged', async () => {
  const before = await result('tools/list');
  assert.equal(before.resultType, 'complete');
  assert.equal(typeof before.ttlMs, 'number');
  assert.ok(['private', 'public'].includes(String(before.cacheScope)));
  const names = (before.tools as Array<{ name: string }>).map((t) => t.name);
  assert.deepEqual(names, [...names].sort(), 'tools come in one order (by name)');

  const resolved = await result('tools/call', {
    name: 'resolve_intent',
    arguments: { query: 'remember that Ada Lovelace wrote the first program' },
  });
  assert.equal(resolved.resultType, 'complete');
  const activated = await result('tools/call', { name: 'activate_power', arguments: { name: 'filesystem' } });
  assert.equal(activated.resultType, 'complete');
  const answer = textOf(activated);
  const callable = answer.callable as Array<{ name: string; input_schema: { type: string } }>;
  assert.ok(
    callable.some((t) => t.name === 'filesystem:list_allowed_directories'),
    "activate_power returns the power's tools",
  );
  assert.ok(
    callable.every((t) => t.input_schema.type === 'object'),
    'each with its input schema',
  );

  const after = await result('tools/list');
  assert.deepEqual(after.tools, before.tools);
});

test('the tool an answer names is called with call_tool_* and answers with resultType complete', async () => {
  const resolved = textOf(
    await result('tools/call', {
      name: 'resolve_intent',
      arguments: { query: 'search my memory for what I noted about Ada Lovelace' },
    }),
  );
  type Schema = { required?: string[]; properties?: Record<string, { type?: string }> };
  const callable = resolved.callable as Array<{ name: string; call_with: string; input_schema: Schema }>;
  assert.ok(callable?.length, `the answer names callable tools: ${JSON.stringify(resolved)}`);
  // The first named read tool whose required arguments are strings, called as the answer says, from its schema alone.
  const stringsOnly = (schema: Schema) =>
    (schema.required ?? []).every((key) => schema.properties?.[key]?.type === 'string');
  const search = callable.find((t) => t.call_with === 'call_tool_read' && stringsOnly(t.input_schema));
  assert.ok(search, JSON.stringify(callable));
  const args = Object.fromEntries((search.input_schema.required ?? []).map((key) => [key, 'Ada']));
  const called = await result('tools/call', {
    name: search.call_with,
    arguments: { name: search.name, args, intent: { operation_type: search.call_with.replace('call_tool_', '') } },
  });
  assert.equal(called.resultType, 'complete');
  assert.notEqual(called.isError, true, JSON.stringify(called.content));
});

test("subscriptions/listen carries an activated power's prompt and resource list changes, and never a tool list change", async () => {
  const id = nextId++;
  child.stdin!.write(
    JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'subscriptions/listen',
      params: {
        _meta: envelope(),
        notifications: { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true },
      },
    }) + '\n',
  );
  const ours = (method: string) =>
    notifications.filter(
      (n) => n.method === method && n.params?._meta?.['io.modelcontextprotocol/subscriptionId'] === id,
    );
  await waitUntil(() => ours('notifications/subscriptions/acknowledged').length === 1, 'the acknowledgment');
  const activated = await result('tools/call', { name: 'activate_power', arguments: { name: 'everything' } });
  assert.notEqual(activated.isError, true, JSON.stringify(activated.content));
  await waitUntil(
    () => ours('notifications/prompts/list_changed').length > 0,
    'prompts/list_changed on the subscription',
  );
  assert.equal(ours('notifications/tools/list_changed').length, 0, 'the tool list did not change');
});

async function waitUntil(predicate: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!predicate()) {
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(notifications.map((n) => n.method))}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
