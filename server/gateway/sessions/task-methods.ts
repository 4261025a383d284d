/**
 * The tasks extension's methods on a 2026-07-28 session: `tasks/get`, `tasks/update` and
 * `tasks/cancel`, each answering for the session's own tasks only (call-tasks.ts).
 */
import type { Server } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { CallTasks } from './call-tasks.js';

const TaskParams = z.looseObject({ taskId: z.string().min(1).max(200) });

export function registerTaskMethods(server: Server, tasks: CallTasks, owner: string, touch: () => void): void {
  server.setRequestHandler('tasks/get', { params: TaskParams }, async ({ taskId }) => {
    touch();
    return { ...tasks.get(owner, taskId) };
  });
  // The SDK lifts a 2026-07-28 request's `inputResponses` out of its params into the request's context.
  server.setRequestHandler('tasks/update', { params: TaskParams }, async ({ taskId }, ctx) => {
    touch();
    tasks.update(owner, taskId, ctx.mcpReq.inputResponses);
    return {};
  });
  server.setRequestHandler('tasks/cancel', { params: TaskParams }, async ({ taskId }) => {
    touch();
    tasks.cancel(owner, taskId);
    return {};
  });
}
