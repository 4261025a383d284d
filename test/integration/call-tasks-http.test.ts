import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fixtureHome, fixtureSpell, type FixtureHome } from '../helpers/fixture-gateway.js';
import { startHttpGateway, type HttpGatewayProcess } from '../helpers/gateway-process.js';
import { sendModern, TASKS } from '../helpers/modern-http-raw.js';
import { cliPath, writeSpell } from '../helpers/temp.js';

/**
 * Long calls as tasks over Streamable HTTP, two users of one real gateway (`serve --http`), raw
 * 2026-07-28 requests (each its own, no session) and a real slow power (cancel-probe-server as
 * `probe`): a task is found by its user's later requests and by no other user's.
 */
let fixture: FixtureHome;
let gateway: HttpGatewayProcess;
let tokens: { alice: string; bob: string };

before(async () => {
  fixture = fixtureHome({ sessions: { taskAfterMs: 300 } });
  writeSpell(
    fixture.spells,
    'probe',
    fixtureSpell('probe', 'cancel-probe-server', {
      description: 'Answers after a while, or waits until cancelled.',
      keywords: ['ticks', 'wait', 'cancel'],
    }),
  );
  const { env } = fixture;
  const addUser = (name: string) =>
    (
      JSON.parse(
        execFileSync(process.execPath, [cliPath, 'users', 'add', name, '--json'], { env, encoding: 'utf8' }),
      ) as { token: string }
    ).token;
  tokens = { alice: addUser('alice'), bob: addUser('bob') };
  gateway = await startHttpGateway(['--spells', fixture.spells, '--no-imports'], env);
});

after(async () => {
  await gateway.stop();
  fixture.home.cleanup();
});

/** One modern request of `token`'s user, declaring the tasks extension. */
const send = (token: string, method: string, params: Record<string, unknown>, name: string) =>
  sendModern({
    url: gateway.url,
    token,
    method,
    params,
    name,
    client: 'raw-tasks',
    capabilities: { extensions: { [TASKS]: {} } },
  });

const task = (token: string, method: string, taskId: string) => send(token, method, { taskId }, taskId);

test(
  "a user's task is found by that user's later requests only: another user's get and cancel answer unknown",
  { timeout: 30_000 },
  async () => {
    const started = await send(
      tokens.alice,
      'tools/call',
      {
        name: 'call_tool_write',
        arguments: { name: 'probe:ticks', args: { count: 8, every: 250 }, intent: { operation_type: 'write' } },
      },
      'call_tool_write',
    );
    assert.equal(started.result?.resultType, 'task', JSON.stringify(started));
    const taskId = String(started.result!.taskId);

    for (const method of ['tasks/get', 'tasks/cancel']) {
      const bobs = await task(tokens.bob, method, taskId);
      assert.equal(bobs.error?.code, -32602, `bob's ${method}: ${JSON.stringify(bobs)}`);
      assert.match(bobs.error!.message, /Unknown task/);
    }
    const owners = await task(gateway.token, 'tasks/get', taskId);
    assert.equal(owners.error?.code, -32602, "the gateway owner's token is another user too");

    let polled = await task(tokens.alice, 'tasks/get', taskId);
    assert.equal(polled.result?.status, 'working', "bob's cancel changed nothing");
    for (let polls = 0; polled.result?.status === 'working' && polls < 100; polls++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      polled = await task(tokens.alice, 'tasks/get', taskId);
    }
    assert.equal(polled.result?.status, 'completed', JSON.stringify(polled));
    const content = (polled.result?.result as { content: Array<{ text: string }> }).content;
    assert.match(content[0].text, /ticked 8/);
  },
);
