/**
 * 2026-07-28 clients of two users on two real gateway replicas (`grimoire serve --http --database …`)
 * on one real PostgreSQL, behind a plain round-robin proxy (no sticky sessions: each request goes to
 * the next replica): every request is answered whichever replica gets it, the tool list is the same
 * from both, and every call is recorded as its user's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import pg from 'pg';
import { gatewayEnv, startHttpGateway, type HttpGatewayProcess } from '../helpers/gateway-process.js';
import { useTestCluster } from '../helpers/test-cluster.js';
import { cliPath, tempDir, unstableSpell, writeSpell } from '../helpers/temp.js';

const run = promisify(execFile);
const temp = tempDir('grimoire-modern-replicas-');
const home = path.join(temp.dir, 'home');
const replicas: HttpGatewayProcess[] = [];
let proxy: Server | undefined;
let proxyUrl = '';
let url = '';
const served = [0, 0];

const env = (n: number) => gatewayEnv({ home, data: path.join(temp.dir, `data-${n}`) }, { GRIMOIRE_DATABASE_URL: url });

/** Each request to the next replica, in turn; the body and the answer (a stream too) passed as they are. */
function roundRobin(targets: string[]): Server {
  let next = 0;
  return createServer((incoming, outgoing) => {
    const at = next++ % targets.length;
    served[at] += 1;
    const target = new URL(targets[at]);
    const forwarded = httpRequest({ host: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers: { ...incoming.headers, host: target.host } }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
}

const { skip } = useTestCluster({
  async setUp(cluster) {
    await cluster.createDatabase('team');
    url = cluster.url('team');
    writeSpell(home, 'unstable', unstableSpell());
    replicas.push(...(await Promise.all([0, 1].map((n) => startHttpGateway(['--spells', home], env(n))))));
    proxy = roundRobin(replicas.map((r) => r.url));
    await new Promise<void>((resolve) => proxy!.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`;
  },
  async tearDown() {
    try {
      proxy?.closeAllConnections();
      proxy?.close();
      await Promise.all(replicas.map((r) => r.stop()));
    } finally {
      temp.cleanup();
    }
  },
});

async function addUser(name: string): Promise<string> {
  const { stdout } = await run(process.execPath, [cliPath, 'users', 'add', name, '--json', '--database', url], { env: gatewayEnv({ home, data: path.join(temp.dir, 'cli') }) });
  return (JSON.parse(stdout) as { token: string }).token;
}

async function modernClient(token: string): Promise<Client> {
  const client = new Client({ name: 'replicas', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(proxyUrl), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

test('two users\' modern clients through a round-robin proxy: every request answered, one tool list, every call their own', { skip, timeout: 60_000 }, async () => {
  const [alice, bob] = await Promise.all([addUser('alice'), addUser('bob')]);
  const clients = { alice: await modernClient(alice), bob: await modernClient(bob) };
  try {
    const lists = await Promise.all([0, 1, 2, 3].map(() => clients.alice.listTools()));
    for (const list of lists) assert.deepEqual(list.tools, lists[0].tools, 'the same list from either replica');
    for (const [user, client] of Object.entries(clients)) {
      for (let i = 0; i < 4; i++) {
        const echoed = await client.callTool({ name: 'call_tool_read', arguments: { name: 'unstable:echo', args: { text: `${user} ${i}` }, intent: { operation_type: 'read' } } });
        assert.notEqual(echoed.isError, true, JSON.stringify(echoed.content));
      }
    }
    assert.ok(served[0] > 2 && served[1] > 2, `both replicas answered: ${served.join(' / ')}`);
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      const rows = await db.query<{ session: string; user_name: string | null; n: number }>("SELECT session, user_name, count(*)::int AS n FROM activity WHERE tool = 'echo' GROUP BY session, user_name");
      assert.deepEqual(
        rows.rows.map((r) => [r.session, r.user_name, r.n]).sort(),
        [
          ['modern:alice', 'alice', 4],
          ['modern:bob', 'bob', 4],
        ],
      );
    } finally {
      await db.end();
    }
  } finally {
    await Promise.all(Object.values(clients).map((client) => client.close()));
  }
});
