import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import * as http from 'node:http';
import * as path from 'node:path';
import {
  connectHttp,
  gatewayEnv,
  payload,
  startHttpGateway,
  textOf,
  waitFor,
  type HttpGatewayProcess,
} from '../helpers/gateway-process.js';
import { cliPath, tempDir } from '../helpers/temp.js';

let home: { dir: string; cleanup: () => void };
let gateway: HttpGatewayProcess;

before(async () => {
  home = tempDir();
  gateway = await startHttpGateway(
    ['--demo', '--no-imports'],
    gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') }),
  );
});

after(async () => {
  await gateway.stop();
  home.cleanup();
});

function rawPost(headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const url = new URL(gateway.url);
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

test('prints a loopback URL and a token', () => {
  assert.match(gateway.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  assert.ok(gateway.token.length >= 32);
});

test('refuses a request without the token, or with a wrong one (401)', async () => {
  const none = await rawPost({});
  assert.equal(none.status, 401);
  assert.match(none.body, /bearer token/i);
  const wrong = await rawPost({ authorization: 'Bearer not-the-token' });
  assert.equal(wrong.status, 401);
});

test('refuses a foreign Host or Origin (DNS rebinding) with 403, accepts a missing Origin', async () => {
  const auth = { authorization: `Bearer ${gateway.token}` };
  const host = await rawPost({ ...auth, host: 'evil.example:80' });
  assert.equal(host.status, 403);
  assert.match(host.body, /Host 'evil\.example:80' is not allowed/);
  const origin = await rawPost({ ...auth, origin: 'http://evil.example' });
  assert.equal(origin.status, 403);
  const ok = await rawPost(auth);
  assert.equal(ok.status, 200, ok.body);
});

test('a real client resolves, sees list_changed, calls a real tool; a second session keeps its own list', async () => {
  const first = await connectHttp(gateway.url, gateway.token);
  const second = await connectHttp(gateway.url, gateway.token);
  try {
    const resolved = payload(
      await first.client.callTool({ name: 'resolve_intent', arguments: { query: 'run the echo test' } }),
    );
    assert.equal(resolved.status, 'activated', JSON.stringify(resolved));
    assert.equal(resolved.power.name, 'everything');
    await waitFor(() => first.listChanged.count > 0, 5000, 'list_changed on the first session');
    assert.ok((await first.client.listTools()).tools.some((t) => t.name === 'everything__echo'));
    const echoed = await first.client.callTool({ name: 'everything__echo', arguments: { message: 'over http' } });
    assert.match(textOf(echoed), /over http/);
    assert.equal(second.listChanged.count, 0, 'the other session was not told: its list did not change');
    assert.ok(
      !(await second.client.listTools()).tools.some((t) => t.name === 'everything__echo'),
      "the other session's list is its own",
    );
    const notThere = await second.client.callTool({ name: 'everything__echo', arguments: { message: 'x' } });
    assert.equal(notThere.isError, true);
  } finally {
    await first.client.close();
    await second.client.close();
  }
});

test('REST: /api/v1/activity needs the token and filters the same records as the CLI', async () => {
  const client = await connectHttp(gateway.url, gateway.token);
  try {
    await client.client.callTool({
      name: 'call_tool_read',
      arguments: { name: 'everything:echo', args: { message: 'rest' }, intent: { operation_type: 'read' } },
    });
    await client.client.callTool({
      name: 'call_tool_write',
      arguments: { name: 'everything:echo', args: { message: 'warned' }, intent: { operation_type: 'write' } },
    });
  } finally {
    await client.client.close();
  }
  const api = new URL('/api/v1/activity?intentType=read&power=everything&limit=50', gateway.url);
  const refused = await fetch(api);
  assert.equal(refused.status, 401);
  const response = await fetch(api, { headers: { Authorization: `Bearer ${gateway.token}` } });
  assert.equal(response.status, 200);
  const rest = ((await response.json()) as { activity: Array<{ id: string; operationType: string }> }).activity;
  assert.ok(rest.length >= 1 && rest.every((row) => row.operationType === 'read'));
  const older = await fetch(new URL('/api/v1/activity?intent_type=read&power=everything&limit=50', gateway.url), {
    headers: { Authorization: `Bearer ${gateway.token}` },
  });
  assert.deepEqual(
    ((await older.json()) as { activity: Array<{ id: string }> }).activity.map((r) => r.id),
    rest.map((r) => r.id),
    'intent_type, the older name, filters the same',
  );
  const env = gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') });
  // Run the CLI without blocking this process: a blocked loop lets kept-alive sockets go stale.
  const cli = JSON.parse(
    (
      await promisify(execFile)(
        process.execPath,
        [cliPath, 'activity', 'list', '--json', '--intent-type', 'read', '--power', 'everything', '--limit', '50'],
        { env, encoding: 'utf8' },
      )
    ).stdout,
  ).activity;
  assert.deepEqual(
    cli.map((r: { id: string }) => r.id),
    rest.map((r) => r.id),
  );
  const bad = await fetch(new URL('/api/v1/activity?since=yesterday-ish', gateway.url), {
    headers: { Authorization: `Bearer ${gateway.token}` },
  });
  assert.equal(bad.status, 400);
  assert.match(((await bad.json()) as { error: string }).error, /since must be a number/);
});
