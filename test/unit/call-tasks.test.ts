import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CallTasks, declaresTasks } from '../../server/gateway/sessions/call-tasks.js';
import { InputBridge, type RunningCall } from '../../server/gateway/sessions/input-bridge.js';

/** Tasks of long calls, over the real input bridge, with a power played by a promise. */
const result = (text: string) => ({ content: [{ type: 'text' as const, text }] });
const signal = () => new AbortController().signal;
const tick = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A call of session `owner` that runs until `finish` (asking its client a name first when `asks`,
 * 30 ms in: a question before the bound goes to the request as input_required), answered as running after 10 ms.
 */
async function longCall(bridge: InputBridge, owner: string, asks = false) {
  let finish!: (text: string) => void;
  const aborted: unknown[] = [];
  const peer = bridge.peer(owner);
  const outcome = await bridge.start(
    owner,
    async () => {
      if (asks) await new Promise((resolve) => setTimeout(resolve, 30));
      const name = asks
        ? (
            (await peer.elicit({ message: 'name?', requestedSchema: { type: 'object', properties: {} } } as never)) as {
              content?: { name?: string };
            }
          ).content?.name
        : '';
      return result(`${await new Promise<string>((resolve) => (finish = resolve))}${name}`);
    },
    (reason) => aborted.push(reason),
    signal(),
    10,
  );
  assert.ok('running' in outcome, JSON.stringify(outcome));
  return { running: outcome.running as RunningCall, finish: (text: string) => finish(text), aborted };
}

test("a task is its owner's: another owner's get, update and cancel are answered as unknown and change nothing", async () => {
  const bridge = new InputBridge(5_000);
  const tasks = new CallTasks(5_000);
  const call = await longCall(bridge, 'a');
  const task = tasks.create('a', call.running, (r) => r);
  assert.equal(task.status, 'working');
  for (const attempt of [
    () => tasks.get('b', task.taskId),
    () => tasks.update('b', task.taskId, {}),
    () => tasks.cancel('b', task.taskId),
  ])
    assert.throws(attempt, /Unknown task/);
  assert.throws(() => tasks.get('a', 'not-minted'), /Unknown task/);
  assert.deepEqual(call.aborted, [], "another owner's cancel reaches no call");
  call.finish('done');
  await tick();
  const ended = tasks.get('a', task.taskId);
  assert.equal(ended.status, 'completed');
  assert.deepEqual(ended.result, result('done'));
});

test("a power's question during a task shows as input_required, and tasks/update answers it", async () => {
  const bridge = new InputBridge(5_000);
  const tasks = new CallTasks(5_000);
  const call = await longCall(bridge, 'a', true);
  const task = tasks.create('a', call.running, (r) => r);
  await tick(40);
  const asking = tasks.get('a', task.taskId);
  assert.equal(asking.status, 'input_required');
  const [key] = Object.keys(asking.inputRequests ?? {});
  assert.equal(asking.inputRequests?.[key].method, 'elicitation/create');
  tasks.update('a', task.taskId, { unrelated: {} });
  assert.equal(tasks.get('a', task.taskId).status, 'input_required', 'a response under another key is ignored');
  tasks.update('a', task.taskId, { [key]: { action: 'accept', content: { name: ' Ada' } } });
  assert.equal(tasks.get('a', task.taskId).status, 'working');
  assert.equal(tasks.get('a', task.taskId).inputRequests, undefined);
  await tick();
  call.finish('hello');
  await tick();
  assert.deepEqual(tasks.get('a', task.taskId).result, result('hello Ada'));
});

test('a question unanswered within the wait is refused to the power (this one fails its call on it)', async () => {
  const bridge = new InputBridge(5_000);
  const tasks = new CallTasks(50);
  const call = await longCall(bridge, 'a', true);
  const task = tasks.create('a', call.running, (r) => r);
  await tick(40);
  assert.equal(tasks.get('a', task.taskId).status, 'input_required');
  await tick(80);
  const after = tasks.get('a', task.taskId);
  assert.equal(after.status, 'failed');
  assert.match(String(after.error?.message), /did not answer within/);
});

test('tasks/cancel cancels the call and the task stays cancelled when the call ends after', async () => {
  const bridge = new InputBridge(5_000);
  const tasks = new CallTasks(5_000);
  const call = await longCall(bridge, 'a');
  const task = tasks.create('a', call.running, (r) => r);
  tasks.cancel('a', task.taskId);
  assert.equal(call.aborted.length, 1);
  call.finish('late');
  await tick();
  const ended = tasks.get('a', task.taskId);
  assert.equal(ended.status, 'cancelled');
  assert.equal(ended.result, undefined);
});

test("when its owner is gone, a running task's call is cancelled and every task of the owner dropped, no other's", async () => {
  const bridge = new InputBridge(5_000);
  const tasks = new CallTasks(5_000);
  const [running, ended, others] = [
    await longCall(bridge, 'a'),
    await longCall(bridge, 'a'),
    await longCall(bridge, 'b'),
  ];
  const [runningTask, endedTask] = [
    tasks.create('a', running.running, (r) => r),
    tasks.create('a', ended.running, (r) => r),
  ];
  const othersTask = tasks.create('b', others.running, (r) => r);
  ended.finish('done');
  await tick();
  tasks.closeOwner('a');
  assert.equal(running.aborted.length, 1, 'the running call is cancelled');
  assert.equal(others.aborted.length, 0);
  for (const id of [runningTask.taskId, endedTask.taskId]) assert.throws(() => tasks.get('a', id), /Unknown task/);
  assert.equal(tasks.get('b', othersTask.taskId).status, 'working');
  assert.equal(tasks.size, 1);
});

test('at most 100 ended tasks are kept per owner: the oldest is dropped first', async () => {
  const bridge = new InputBridge(5_000);
  const tasks = new CallTasks(5_000);
  const ids: string[] = [];
  for (let i = 0; i < 101; i++) {
    const call = await longCall(bridge, 'a');
    ids.push(tasks.create('a', call.running, (r) => r).taskId);
    call.finish(`done ${i}`);
    await tick(1);
  }
  await tick();
  assert.equal(tasks.size, 100);
  assert.throws(() => tasks.get('a', ids[0]), /Unknown task/);
  assert.deepEqual(tasks.get('a', ids[100]).result, result('done 100'));
});

test('only a request that declares the extension gets tasks', () => {
  assert.equal(declaresTasks(undefined), false);
  assert.equal(declaresTasks({}), false);
  assert.equal(declaresTasks({ extensions: { other: {} } }), false);
  assert.equal(declaresTasks({ extensions: { 'io.modelcontextprotocol/tasks': {} } }), true);
});
