import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import * as fs from 'node:fs';
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
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** Ends the session on the server too (HTTP DELETE), then closes the client. */
async function end(session: Awaited<ReturnType<typeof connectHttp>>): Promise<void> {
  await (session.client.transport as StreamableHTTPClientTransport | undefined)
    ?.terminateSession()
    .catch(() => undefined);
  await session.client.close();
}

/** Two (and more) real MCP clients over Streamable HTTP on one gateway process: each session is its own. */
let home: { dir: string; cleanup: () => void };
let env: Record<string, string>;
let gateway: HttpGatewayProcess;

before(async () => {
  home = tempDir();
  fs.writeFileSync(path.join(home.dir, 'settings.json'), JSON.stringify({ sessions: { maxConcurrent: 3 } }));
  env = gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') });
  gateway = await startHttpGateway(['--demo', '--no-imports'], env);
});

after(async () => {
  await gateway.stop();
  home.cleanup();
});

const names = async (session: Awaited<ReturnType<typeof connectHttp>>) =>
  (await session.client.listTools()).tools.map((t) => t.name);
/** Events from the real CLI, run without blocking this process (a blocked loop lets kept-alive sockets go stale). */
const events = async (power: string, kind: string) =>
  (
    JSON.parse(
      (
        await promisify(execFile)(process.execPath, [cliPath, 'events', '--json', '--limit', '500'], {
          env,
          encoding: 'utf8',
        })
      ).stdout,
    ).events as Array<{ kind: string; power: string }>
  ).filter((e) => e.power === power && e.kind === kind).length;

test(
  'two sessions with different active powers; list_changed only to the session whose list changed; ' +
    'children shared and reference-counted',
  async () => {
    const a = await connectHttp(gateway.url, gateway.token);
    const b = await connectHttp(gateway.url, gateway.token);
    try {
      assert.equal(
        payload(await a.client.callTool({ name: 'activate_power', arguments: { name: 'memory' } })).status,
        'activated',
      );
      await waitFor(() => a.listChanged.count > 0, 5000, 'list_changed to A');
      assert.equal(b.listChanged.count, 0, 'B was not told');
      assert.equal(
        payload(await b.client.callTool({ name: 'activate_power', arguments: { name: 'everything' } })).status,
        'activated',
      );
      await waitFor(() => b.listChanged.count > 0, 5000, 'list_changed to B');
      const aSeen = a.listChanged.count;

      const aNames = await names(a);
      const bNames = await names(b);
      assert.ok(
        aNames.includes('memory__read_graph') && !aNames.some((n) => n.startsWith('everything__')),
        'A sees memory only',
      );
      assert.ok(
        bNames.includes('everything__echo') && !bNames.some((n) => n.startsWith('memory__')),
        'B sees everything only',
      );
      assert.equal(
        (await b.client.callTool({ name: 'memory__read_graph', arguments: {} })).isError,
        true,
        "B cannot call A's exposed tool",
      );

      // B deactivating a power it never activated changes nothing for A.
      await b.client.callTool({ name: 'deactivate_power', arguments: { name: 'memory' } });
      assert.ok((await names(a)).includes('memory__read_graph'));
      assert.notEqual((await a.client.callTool({ name: 'memory__read_graph', arguments: {} })).isError, true);

      // Both use filesystem: one child; it keeps running while one session still has it active.
      await a.client.callTool({ name: 'activate_power', arguments: { name: 'filesystem' } });
      await b.client.callTool({ name: 'activate_power', arguments: { name: 'filesystem' } });
      const starts = await events('filesystem', 'power.active');
      const stops = await events('filesystem', 'power.stopped');
      await a.client.callTool({ name: 'deactivate_power', arguments: { name: 'filesystem' } });
      assert.ok(!(await names(a)).some((n) => n.startsWith('filesystem__')));
      assert.ok((await names(b)).includes('filesystem__list_allowed_directories'));
      const listed = await b.client.callTool({ name: 'filesystem__list_allowed_directories', arguments: {} });
      assert.notEqual(listed.isError, true, textOf(listed));
      assert.equal(await events('filesystem', 'power.stopped'), stops, 'still used by B: not stopped');
      assert.equal(await events('filesystem', 'power.active'), starts, 'the same child served both sessions');
      await b.client.callTool({ name: 'deactivate_power', arguments: { name: 'filesystem' } });
      await waitFor(
        async () => (await events('filesystem', 'power.stopped')) === stops + 1,
        5000,
        'the child stopped once no session used it',
      );
      assert.ok(a.listChanged.count > aSeen, 'A was told about its own filesystem changes');
    } finally {
      await end(a);
      await end(b);
    }
  },
);

test("past its limit a client's least recently used session is closed to make room; the others keep working", async () => {
  const open = [
    await connectHttp(gateway.url, gateway.token),
    await connectHttp(gateway.url, gateway.token),
    await connectHttp(gateway.url, gateway.token),
  ];
  try {
    await names(open[1]!);
    await names(open[2]!);
    open.push(await connectHttp(gateway.url, gateway.token));
    await assert.rejects(
      open[0]!.client.listTools(),
      /unknown or closed/,
      'the least recently used session was closed',
    );
    for (const session of open.slice(1)) assert.ok((await names(session)).includes('resolve_intent'));
  } finally {
    for (const session of open.slice(1)) await end(session);
    await open[0]!.client.close();
  }
});

test('a session idle past sessions.idleMinutes is closed and its state freed', async () => {
  const other = tempDir();
  fs.writeFileSync(
    path.join(other.dir, 'settings.json'),
    JSON.stringify({ sessions: { idleMinutes: 0.02, maxConcurrent: 1 } }),
  );
  const idleGateway = await startHttpGateway(
    ['--no-imports'],
    gatewayEnv({ home: other.dir, data: path.join(other.dir, 'data') }),
  );
  try {
    const first = await connectHttp(idleGateway.url, idleGateway.token);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await assert.rejects(first.client.listTools(), /unknown or closed/);
    const second = await connectHttp(idleGateway.url, idleGateway.token);
    assert.ok((await names(second)).includes('resolve_intent'), 'the freed place is usable');
    await end(second);
  } finally {
    await idleGateway.stop();
    other.cleanup();
  }
});
