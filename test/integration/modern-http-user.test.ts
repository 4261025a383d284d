import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gatewayEnv, startHttpGateway, type HttpGatewayProcess } from '../helpers/gateway-process.js';
import { sendModern, TASKS } from '../helpers/modern-http-raw.js';
import { cliPath, fixtureServer, tempDir, writeSpell } from '../helpers/temp.js';

/**
 * A 2026-07-28 HTTP user's standing part outlives each request: a real gateway (`serve --http`),
 * raw modern requests (each its own, no session) and a real power (cancel-probe-server as `probe`)
 * whose tool waits, then asks the client by elicitation. The call becomes a task; the question
 * comes long after the request that started it ended, while the user's other requests come and
 * go, and still reaches the user (input_required on tasks/get, answered by tasks/update).
 */
const CAPABILITIES = { elicitation: {}, extensions: { [TASKS]: {} } };
let home: { dir: string; cleanup: () => void };
let gateway: HttpGatewayProcess;
let alice = '';

before(async () => {
  home = tempDir();
  fs.writeFileSync(path.join(home.dir, 'settings.json'), JSON.stringify({ sessions: { taskAfterMs: 300 } }));
  const spells = path.join(home.dir, 'spells');
  writeSpell(
    spells,
    'probe',
    `name: probe
version: 1.0.0
description: Answers after a while, or asks the client after a while.
keywords: [ticks, wait, ask]
server:
  command: ${JSON.stringify(process.execPath)}
  args: ${JSON.stringify([fixtureServer('cancel-probe-server')])}
`,
  );
  const env = gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') });
  alice = (
    JSON.parse(
      execFileSync(process.execPath, [cliPath, 'users', 'add', 'alice', '--json'], { env, encoding: 'utf8' }),
    ) as { token: string }
  ).token;
  gateway = await startHttpGateway(['--spells', spells, '--no-imports'], env);
});

after(async () => {
  await gateway.stop();
  home.cleanup();
});

/** One modern request of alice's, declaring elicitation and the tasks extension (`notes`: the notifications sent with it). */
const send = (
  method: string,
  params: Record<string, unknown>,
  name: string,
  meta: Record<string, unknown> = {},
  notes: Array<Record<string, unknown>> = [],
) =>
  sendModern({
    url: gateway.url,
    token: alice,
    method,
    params,
    name,
    client: 'raw-user',
    capabilities: CAPABILITIES,
    meta,
    notes,
  });

const call = (tool: string, args: Record<string, unknown>) =>
  send(
    'tools/call',
    { name: 'call_tool_write', arguments: { name: `probe:${tool}`, args, intent: { operation_type: 'write' } } },
    'call_tool_write',
  );
const taskGet = (taskId: string) => send('tasks/get', { taskId }, taskId);

/** Polls the task (several gets at once each time: concurrent requests of the user) until `done` says so. */
async function pollUntil(taskId: string, done: (status: unknown) => boolean): Promise<Record<string, unknown>> {
  let last: Record<string, unknown> = {};
  for (let polls = 0; polls < 150; polls++) {
    const answers = await Promise.all([taskGet(taskId), taskGet(taskId), taskGet(taskId)]);
    for (const answer of answers) assert.ok(answer.result, `tasks/get: ${JSON.stringify(answer.error)}`);
    last = answers[answers.length - 1].result!;
    if (done(last.status)) return last;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`the task did not reach the awaited status: ${JSON.stringify(last)}`);
}

test(
  "a task's power asks after the request that started it ended, amid the user's other requests: " +
    'tasks/get shows input_required and tasks/update answers the power',
  { timeout: 60_000 },
  async () => {
    // The power starts for a call that declared elicitation, so that it is told the gateway can elicit.
    const warm = await call('was_cancelled', {});
    assert.ok(warm.result, JSON.stringify(warm.error));
    // Its start may outlast the bound: then it is a task of its own, followed to its end.
    if (warm.result.resultType === 'task')
      assert.equal((await pollUntil(String(warm.result.taskId), (status) => status !== 'working')).status, 'completed');

    const started = await call('wait_then_ask', { ms: 1500 });
    assert.equal(started.result?.resultType, 'task', JSON.stringify(started));
    const taskId = String(started.result!.taskId);

    const asking = await pollUntil(taskId, (status) => status !== 'working');
    assert.equal(asking.status, 'input_required', `the question reached the user's task: ${JSON.stringify(asking)}`);
    const requests = asking.inputRequests as Record<string, { method: string; params: { message: string } }>;
    const [key, question] = Object.entries(requests)[0];
    assert.equal(question.method, 'elicitation/create');
    assert.match(question.params.message, /^probe: Whose name\?/);

    const updated = await send(
      'tasks/update',
      { taskId, inputResponses: { [key]: { action: 'accept', content: { name: 'Ada' } } } },
      taskId,
    );
    assert.ok(updated.result, JSON.stringify(updated.error));
    const ended = await pollUntil(
      taskId,
      (status) => status === 'completed' || status === 'failed' || status === 'cancelled',
    );
    assert.equal(ended.status, 'completed', JSON.stringify(ended));
    const text = (ended.result as { content: Array<{ text: string }> }).content[0].text;
    assert.equal(text, 'reply: accept {"name":"Ada"}', 'the power got the answer given through tasks/update');
  },
);

test(
  "a power's log message during a call goes to the request that asked for a log level, masked, and to no other",
  { timeout: 30_000 },
  async () => {
    const token = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
    const callLog = async (meta: Record<string, unknown>) => {
      const notes: Array<Record<string, unknown>> = [];
      const answer = await send(
        'tools/call',
        {
          name: 'call_tool_write',
          arguments: {
            name: 'probe:log_then_answer',
            args: { text: `hello token: ${token}` },
            intent: { operation_type: 'write' },
          },
        },
        'call_tool_write',
        meta,
        notes,
      );
      assert.ok(answer.result, JSON.stringify(answer.error));
      return notes
        .filter((note) => note.method === 'notifications/message')
        .map((note) => note.params as { level: string; logger: string; data: string });
    };
    await callLog({});
    const asked = await callLog({ 'io.modelcontextprotocol/logLevel': 'info' });
    assert.equal(asked.length, 1, JSON.stringify(asked));
    assert.equal(asked[0].logger, 'probe/probe-log');
    assert.match(asked[0].data, /^hello token: /);
    assert.ok(!asked[0].data.includes(token), 'the token is masked');
    assert.deepEqual(await callLog({ 'io.modelcontextprotocol/logLevel': 'error' }), [], 'below the level asked for');
    assert.deepEqual(await callLog({}), [], 'a request that asked for no level gets none');
  },
);
