/**
 * 2026-07-28 clients of two users on two real gateway replicas (`grimoire serve --http --database …`)
 * on one real PostgreSQL, behind a plain round-robin proxy (no sticky sessions: each request goes to
 * the next replica): every request is answered whichever replica gets it, the tool list is the same
 * from both, every call is recorded as its user's, and what the agent is told follows the user
 * across replicas (the powers active for the user, the guidance already given, the hint context)
 * and never reaches another user. A long call answered as a task is answered for by either
 * replica: its status and result, a question its power asks, and its cancellation.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import pg from 'pg';
import { gatewayEnv, startHttpGateway, type HttpGatewayProcess } from '../helpers/gateway-process.js';
import { sendModern, TASKS, type RawAnswer } from '../helpers/modern-http-raw.js';
import { acceptedEverywhere, addTeamUser } from '../helpers/team-users.js';
import { useTestCluster } from '../helpers/test-cluster.js';
import { fixtureServer, repoRoot, tempDir, unstableSpell, writeSpell } from '../helpers/temp.js';

const temp = tempDir('grimoire-modern-replicas-');
const home = path.join(temp.dir, 'home');
const replicas: HttpGatewayProcess[] = [];
let proxy: Server | undefined;
let proxyUrl = '';
let url = '';
const served = [0, 0];

/** The real memory server, whose create_entities declares search_nodes as its prerequisite (a hint). */
const memorySpell = () => `name: memory
version: 1.0.0
description: A knowledge graph memory of entities, relations and observations.
keywords: [memory, knowledge, graph]
server:
  command: ${JSON.stringify(process.execPath)}
  args: [${JSON.stringify(path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js'))}]
  env:
    MEMORY_FILE_PATH: ${JSON.stringify(path.join(temp.dir, 'memory.jsonl'))}
hints:
  create_entities:
    prerequisites: [search_nodes]
`;

/** A real slow power: waits, ticks, or asks the client after a while (test/fixtures/servers/cancel-probe-server.ts). */
const probeSpell = () => `name: probe
version: 1.0.0
description: Answers after a while, asks after a while, or waits until cancelled.
keywords: [ticks, wait, ask]
server:
  command: ${JSON.stringify(process.execPath)}
  args: ${JSON.stringify([fixtureServer('cancel-probe-server')])}
`;

const env = (n: number) => gatewayEnv({ home, data: path.join(temp.dir, `data-${n}`) }, { GRIMOIRE_DATABASE_URL: url });

/** Each request to the next replica, in turn; the body and the answer (a stream too) passed as they are. */
function roundRobin(targets: string[]): Server {
  let next = 0;
  return createServer((incoming, outgoing) => {
    const at = next++ % targets.length;
    served[at] += 1;
    const target = new URL(targets[at]);
    const forwarded = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: incoming.url,
        method: incoming.method,
        headers: { ...incoming.headers, host: target.host },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
}

const { skip } = useTestCluster({
  async setUp(cluster) {
    await cluster.createDatabase('team');
    url = cluster.url('team');
    writeSpell(home, 'unstable', unstableSpell());
    writeSpell(home, 'memory', memorySpell());
    writeSpell(home, 'probe', probeSpell());
    // A call of a client that declared the tasks extension becomes a task after 300 ms (the v2 Clients here declare none).
    fs.writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ sessions: { taskAfterMs: 300 } }));
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
  const token = await addTeamUser(
    { databaseUrl: url, env: gatewayEnv({ home, data: path.join(temp.dir, 'cli') }) },
    name,
  );
  await acceptedEverywhere(token, replicas);
  return token;
}

async function modernClient(token: string): Promise<Client> {
  const client = new Client(
    { name: 'replicas', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(proxyUrl), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

test(
  "two users' modern clients through a round-robin proxy: every request answered, one tool list, every call their own",
  { skip, timeout: 60_000 },
  async () => {
    const [alice, bob] = await Promise.all([addUser('alice'), addUser('bob')]);
    const clients = { alice: await modernClient(alice), bob: await modernClient(bob) };
    try {
      const lists = await Promise.all([0, 1, 2, 3].map(() => clients.alice.listTools()));
      for (const list of lists) assert.deepEqual(list.tools, lists[0].tools, 'the same list from either replica');
      for (const [user, client] of Object.entries(clients)) {
        for (let i = 0; i < 4; i++) {
          const echoed = await client.callTool({
            name: 'call_tool_read',
            arguments: { name: 'unstable:echo', args: { text: `${user} ${i}` }, intent: { operation_type: 'read' } },
          });
          assert.notEqual(echoed.isError, true, JSON.stringify(echoed.content));
        }
      }
      assert.ok(served[0] > 2 && served[1] > 2, `both replicas answered: ${served.join(' / ')}`);
      const db = new pg.Client({ connectionString: url });
      await db.connect();
      try {
        const rows = await db.query<{ session: string; user_name: string | null; n: number }>(
          "SELECT session, user_name, count(*)::int AS n FROM activity WHERE tool = 'echo' GROUP BY session, user_name",
        );
        assert.deepEqual(rows.rows.map((r) => [r.session, r.user_name, r.n]).sort(), [
          ['modern:alice', 'alice', 4],
          ['modern:bob', 'bob', 4],
        ]);
      } finally {
        await db.end();
      }
    } finally {
      await Promise.all(Object.values(clients).map((client) => client.close()));
    }
  },
);

type Answer = Awaited<ReturnType<Client['callTool']>>;
const payloadOf = (answer: Answer) => (answer.structuredContent ?? {}) as Record<string, unknown>;
const textOf = (answer: Answer) =>
  (answer.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');

/** `work` run `times` times in a row, with how many of them each replica served (the proxy's turns are shared by every client). */
async function inTurns<T>(times: number, work: () => Promise<T>): Promise<{ results: T[]; byReplica: number[] }> {
  const start = [...served];
  const results: T[] = [];
  for (let i = 0; i < times; i++) results.push(await work());
  return { results, byReplica: served.map((n, i) => n - start[i]) };
}

test(
  "a user's active powers and the guidance already given follow the user across replicas; another user's stay apart",
  { skip, timeout: 60_000 },
  async () => {
    const [carol, dave] = await Promise.all([addUser('carol'), addUser('dave')]);
    const clients = { carol: await modernClient(carol), dave: await modernClient(dave) };
    // An unknown tool's answer names the caller's active powers.
    const activeSeenBy = async (client: Client) =>
      textOf(await client.callTool({ name: 'no_such_tool', arguments: {} }));
    try {
      const first = await clients.carol.callTool({ name: 'activate_power', arguments: { name: 'unstable' } });
      assert.equal(payloadOf(first).status, 'activated', textOf(first));
      assert.equal(
        payloadOf(first).guidance,
        'Test guidance for the unstable server.',
        'the guidance comes with the first activation',
      );

      const probes = await inTurns(2, () => activeSeenBy(clients.carol));
      assert.deepEqual(probes.byReplica, [1, 1], 'one probe on each replica');
      for (const text of probes.results)
        assert.match(text, /Active powers: unstable\./, 'the power is active for carol on either replica');

      const again = await inTurns(2, () =>
        clients.carol.callTool({ name: 'activate_power', arguments: { name: 'unstable' } }),
      );
      assert.deepEqual(again.byReplica, [1, 1]);
      for (const answer of again.results) {
        assert.notEqual(answer.isError, true, textOf(answer));
        assert.equal(
          payloadOf(answer).guidance,
          undefined,
          'the guidance is not given again, whichever replica answers',
        );
      }

      // Dave's state is his own: nothing active, and the guidance is new to him.
      const daves = await inTurns(2, () => activeSeenBy(clients.dave));
      for (const text of daves.results) assert.match(text, /No power is active\./);
      const davesFirst = await clients.dave.callTool({ name: 'activate_power', arguments: { name: 'unstable' } });
      assert.equal(payloadOf(davesFirst).guidance, 'Test guidance for the unstable server.');

      const off = await clients.carol.callTool({ name: 'deactivate_power', arguments: { name: 'unstable' } });
      assert.notEqual(off.isError, true, textOf(off));
      const after = await inTurns(2, () => activeSeenBy(clients.carol));
      assert.deepEqual(after.byReplica, [1, 1]);
      for (const text of after.results) assert.match(text, /No power is active\./, 'deactivated on every replica');
      const davesStill = await inTurns(2, () => activeSeenBy(clients.dave));
      for (const text of davesStill.results)
        assert.match(text, /Active powers: unstable\./, "carol's deactivation leaves dave's power active");

      const db = new pg.Client({ connectionString: url });
      await db.connect();
      try {
        const rows = await db.query<{ session: string; kind: string; item: string }>(
          "SELECT session, kind, item FROM session_state WHERE session IN ('modern:carol', 'modern:dave') ORDER BY session, kind",
        );
        assert.deepEqual(
          rows.rows.map((r) => [r.session, r.kind, r.item.split('#')[0]]),
          [
            ['modern:carol', 'shown', 'unstable'],
            ['modern:dave', 'active', 'unstable'],
            ['modern:dave', 'shown', 'unstable'],
          ],
        );
      } finally {
        await db.end();
      }
    } finally {
      await Promise.all(Object.values(clients).map((client) => client.close()));
    }
  },
);

test(
  'the hint context follows the user across replicas: a prerequisite suggested through one is not suggested again through the other',
  { skip, timeout: 60_000 },
  async () => {
    const [erin, frank] = await Promise.all([addUser('erin'), addUser('frank')]);
    const clients = { erin: await modernClient(erin), frank: await modernClient(frank) };
    const create = (client: Client, name: string) =>
      client.callTool({
        name: 'call_tool_write',
        arguments: {
          name: 'memory:create_entities',
          args: { entities: [{ name, entityType: 'test', observations: [] }] },
          intent: { operation_type: 'write' },
        },
      });
    try {
      const calls = await inTurns(2, () => create(clients.erin, 'erin-1'));
      assert.deepEqual(calls.byReplica, [1, 1], 'one call on each replica');
      assert.match(
        textOf(calls.results[0]),
        /PREREQUISITE_SUGGESTED/,
        'the first call is told to run search_nodes first',
      );
      assert.notEqual(calls.results[1].isError, true, textOf(calls.results[1]));
      assert.doesNotMatch(
        textOf(calls.results[1]),
        /PREREQUISITE_SUGGESTED/,
        'calling again runs it, whichever replica answers',
      );

      const franks = await create(clients.frank, 'frank-1');
      assert.match(textOf(franks), /PREREQUISITE_SUGGESTED/, "erin's context is not frank's");
    } finally {
      await Promise.all(Object.values(clients).map((client) => client.close()));
    }
  },
);

/** One raw 2026-07-28 request (declaring elicitation and the tasks extension) to `target`: the proxy, or one replica. */
const raw = (target: string, token: string, method: string, params: Record<string, unknown>, name: string) =>
  sendModern({
    url: target,
    token,
    method,
    params,
    name,
    client: 'raw-replicas',
    capabilities: { elicitation: {}, extensions: { [TASKS]: {} } },
  });

/** Starts a probe call through the proxy as a task; the task's id and the replica that runs it. */
async function startTask(
  token: string,
  tool: string,
  args: Record<string, unknown>,
): Promise<{ taskId: string; runner: number }> {
  const before = [...served];
  const started = await raw(
    proxyUrl,
    token,
    'tools/call',
    { name: 'call_tool_write', arguments: { name: `probe:${tool}`, args, intent: { operation_type: 'write' } } },
    'call_tool_write',
  );
  assert.equal(started.result?.resultType, 'task', JSON.stringify(started));
  return { taskId: String(started.result!.taskId), runner: served.findIndex((n, i) => n > before[i]) };
}

/** Polls the task at one replica until `done` holds for its status. */
async function pollAt(
  target: string,
  token: string,
  taskId: string,
  done: (status: unknown) => boolean,
): Promise<Record<string, unknown>> {
  let last: RawAnswer = {};
  for (let polls = 0; polls < 100; polls++) {
    last = await raw(target, token, 'tasks/get', { taskId }, taskId);
    assert.ok(last.result, `tasks/get: ${JSON.stringify(last.error)}`);
    if (done(last.result.status)) return last.result;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`the task did not reach the awaited status: ${JSON.stringify(last)}`);
}

const ended = (status: unknown) => status === 'completed' || status === 'failed' || status === 'cancelled';

test(
  'a long call answered as a task is followed on the replica that does not run it: ' +
    "its status, result, question and cancellation; another user's get is unknown on both",
  { skip, timeout: 90_000 },
  async () => {
    const [gina, hal] = await Promise.all([addUser('gina'), addUser('hal')]);
    const other = (runner: number) => replicas[1 - runner].url;

    const ticks = await startTask(gina, 'ticks', { count: 6, every: 250 });
    assert.ok(ticks.runner >= 0);
    const seen = await raw(other(ticks.runner), gina, 'tasks/get', { taskId: ticks.taskId }, ticks.taskId);
    assert.equal(seen.result?.taskId, ticks.taskId, `the other replica knows the task: ${JSON.stringify(seen)}`);
    for (const target of [replicas[0].url, replicas[1].url]) {
      const hals = await raw(target, hal, 'tasks/get', { taskId: ticks.taskId }, ticks.taskId);
      assert.equal(hals.error?.code, -32602, `hal's get: ${JSON.stringify(hals)}`);
      assert.match(hals.error!.message, /Unknown task/);
    }
    const done = await pollAt(other(ticks.runner), gina, ticks.taskId, ended);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    assert.match((done.result as { content: Array<{ text: string }> }).content[0].text, /ticked 6/);

    const asking = await startTask(gina, 'wait_then_ask', { ms: 800 });
    const question = await pollAt(other(asking.runner), gina, asking.taskId, (status) => status !== 'working');
    assert.equal(question.status, 'input_required', JSON.stringify(question));
    const [key] = Object.keys(question.inputRequests as Record<string, unknown>);
    const updated = await raw(
      other(asking.runner),
      gina,
      'tasks/update',
      { taskId: asking.taskId, inputResponses: { [key]: { action: 'accept', content: { name: 'Grace' } } } },
      asking.taskId,
    );
    assert.ok(updated.result, JSON.stringify(updated.error));
    const answered = await pollAt(other(asking.runner), gina, asking.taskId, ended);
    assert.equal(
      (answered.result as { content: Array<{ text: string }> }).content[0].text,
      'reply: accept {"name":"Grace"}',
      'the answer given on the other replica reached the power',
    );

    const waiting = await startTask(gina, 'wait', {});
    const halsCancel = await raw(
      other(waiting.runner),
      hal,
      'tasks/cancel',
      { taskId: waiting.taskId },
      waiting.taskId,
    );
    assert.equal(halsCancel.error?.code, -32602, "hal cannot cancel gina's task");
    const cancel = await raw(other(waiting.runner), gina, 'tasks/cancel', { taskId: waiting.taskId }, waiting.taskId);
    assert.ok(cancel.result, JSON.stringify(cancel.error));
    const cancelled = await pollAt(other(waiting.runner), gina, waiting.taskId, ended);
    assert.equal(cancelled.status, 'cancelled', JSON.stringify(cancelled));
    assert.equal(
      (await raw(replicas[waiting.runner].url, gina, 'tasks/get', { taskId: waiting.taskId }, waiting.taskId)).result
        ?.status,
      'cancelled',
      'where it ran too',
    );
  },
);
