/**
 * Call tasks through the store (shared-tasks.ts), on a real SQLite store standing in for the team's
 * PostgreSQL (the rows and queries are the same): a view is read back by its owner only, with its
 * secrets masked and still JSON; a request passed on reaches the running tasks' runner as its
 * owner's, and one for an ended task is not passed on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SharedTasks, type TaskRunner } from '../../server/gateway/sessions/shared-tasks.js';
import type { TaskView } from '../../server/gateway/sessions/task-view.js';
import { tempStore } from '../helpers/temp-store.js';

const view = (taskId: string, fields: Partial<TaskView> = {}): TaskView => ({
  taskId,
  status: 'working',
  createdAt: '2026-11-29T10:00:00.000Z',
  lastUpdatedAt: '2026-11-29T10:00:00.000Z',
  ttlMs: 600_000,
  pollIntervalMs: 1000,
  ...fields,
});

test("a stored view is its owner's only, with its secrets masked and still JSON", async (t) => {
  const { store } = await tempStore(t);
  const shared = new SharedTasks(store);
  const secret = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
  shared.publish(
    'modern:alice',
    view('t1', {
      status: 'completed',
      result: { content: [{ type: 'text', text: `token: ${secret}` }], structuredContent: { password: 'x"y' } },
    }),
  );
  await shared.written();
  const stored = await store.read<{ body: string }>("SELECT body FROM call_tasks WHERE task_id = 't1'");
  assert.ok(!stored[0].body.includes(secret), 'the token is not stored');
  assert.ok(!stored[0].body.includes('x\\"y'), 'nor a value whose key names it a secret');
  const read = await shared.view('modern:alice', 't1');
  assert.equal(read.status, 'completed');
  assert.doesNotMatch(JSON.stringify(read.result), /ghp_/);
  await assert.rejects(shared.view('modern:bob', 't1'), /Unknown task/);
  await assert.rejects(shared.view('modern:alice', 'never-minted'), /Unknown task/);
});

test("a request passed on reaches the runner as its owner's; one for an ended task or another owner's is not passed on", async (t) => {
  const { store } = await tempStore(t);
  const shared = new SharedTasks(store);
  t.after(() => shared.stop());
  shared.publish('modern:alice', view('running'));
  shared.publish('modern:alice', view('ended', { status: 'completed' }));
  await shared.written();

  await assert.rejects(shared.pass('modern:bob', 'running', 'cancel'), /Unknown task/);
  await shared.pass('modern:alice', 'ended', 'cancel');
  await shared.pass('modern:alice', 'running', 'update', { elicitation_create: { action: 'accept' } });
  const passed = await store.read<{ task_id: string; kind: string }>(
    "SELECT task_id, kind FROM call_tasks WHERE kind <> 'view'",
  );
  assert.deepEqual(passed, [{ task_id: 'running', kind: 'update' }], "only the running task's update is passed on");

  const applied: string[] = [];
  const runner: TaskRunner = {
    running: () => [{ owner: 'modern:alice', view: view('running') }],
    update: (owner, taskId, responses) => void applied.push(`${owner} ${taskId} ${JSON.stringify(responses)}`),
    cancel: (owner, taskId) => void applied.push(`${owner} cancel ${taskId}`),
  };
  shared.follow(runner);
  for (let waited = 0; applied.length === 0 && waited < 5000; waited += 50)
    await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(applied, ['modern:alice running {"elicitation_create":{"action":"accept"}}']);
  await shared.written();
  assert.deepEqual(
    await store.read("SELECT task_id FROM call_tasks WHERE kind <> 'view'"),
    [],
    'a request is applied once',
  );
});
