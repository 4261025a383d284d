/**
 * The tasks extension's methods on a 2026-07-28 session: `tasks/get`, `tasks/update` and
 * `tasks/cancel`, each answering for the session's own tasks only (call-tasks.ts); with
 * `acrossReplicas` (a modern HTTP user on a team's store), a task another replica runs is answered
 * through the store (shared-tasks.ts).
 */
import type { Server } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { CallTasks } from './call-tasks.js';

const TaskParams = z.looseObject({ taskId: z.string().min(1).max(200) });

export function registerTaskMethods(
  server: Server,
  tasks: CallTasks,
  owner: string,
  touch: () => void,
  acrossReplicas = false,
): void {
  const elsewhere = (taskId: string) =>
    acrossReplicas && tasks.shared && !tasks.holds(taskId) ? tasks.shared : undefined;
  server.setRequestHandler('tasks/get', { params: TaskParams }, async ({ taskId }) => {
    touch();
    const shared = elsewhere(taskId);
    return { ...(shared ? await shared.view(owner, taskId) : tasks.get(owner, taskId)) };
  });
  // The SDK lifts a 2026-07-28 request's `inputResponses` out of its params into the request's context.
  server.setRequestHandler('tasks/update', { params: TaskParams }, async ({ taskId }, ctx) => {
    touch();
    const shared = elsewhere(taskId);
    if (shared) await shared.pass(owner, taskId, 'update', ctx.mcpReq.inputResponses);
    else tasks.update(owner, taskId, ctx.mcpReq.inputResponses);
    return {};
  });
  server.setRequestHandler('tasks/cancel', { params: TaskParams }, async ({ taskId }) => {
    touch();
    const shared = elsewhere(taskId);
    if (shared) await shared.pass(owner, taskId, 'cancel');
    else tasks.cancel(owner, taskId);
    return {};
  });
}
