/**
 * Call tasks on a store that spans machines (a team gateway's replicas on one PostgreSQL, behind
 * any proxy): the replica that runs a task writes its view (status, question, and once it ended
 * its result or error) to the store's `call_tasks` rows; a replica that does not run it answers
 * `tasks/get` from there, and passes `tasks/update` and `tasks/cancel` on as request rows that the
 * running replica reads while it has tasks running. Every row names its owner: another user's
 * task is unknown on every replica. A view is stored with its secrets masked value by value (the
 * store's own masking of a whole text could break the JSON, so the table is stored as written).
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { errorMessage, logger } from '../../log.js';
import type { Store } from '../../store/store-interface.js';
import { MASK, maskSecrets } from '../../util/secrets.js';
import type { TaskView } from './task-view.js';

const log = logger('session');

/** How often a replica with running tasks reads the requests other replicas passed on. */
const POLL_MS = 500;

type RequestKind = 'update' | 'cancel';

/** What the running replica does with a request passed on (CallTasks' own methods, owner-checked). */
export interface TaskRunner {
  running(): Array<{ owner: string; view: TaskView }>;
  update(owner: string, taskId: string, responses: Record<string, unknown> | undefined): void;
  cancel(owner: string, taskId: string): void;
}

export const unknownTask = () =>
  new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    'Unknown task: no task of yours has this taskId (it expired, or it is not yours).',
  );

export class SharedTasks {
  private poll?: NodeJS.Timeout;
  /** When each running task's view was last written: one unchanged for half its time to live is written again. */
  private readonly published = new Map<string, number>();
  private polling = false;

  constructor(private readonly store: Store) {}

  /** Writes the task's view as it is now (a row per task: the latest view wins). */
  publish(owner: string, view: TaskView): void {
    this.published.set(view.taskId, Date.now());
    this.store.writeMany([
      {
        op: 'upsert',
        table: 'call_tasks',
        row: { task_id: view.taskId, kind: 'view', owner, body: maskedJson(view), at: Date.now() },
      },
    ]);
  }

  /** Resolves once what was published so far may be read by every replica (the task handle leaves after it). */
  written(): Promise<void> {
    return this.store.acknowledged?.() ?? Promise.resolve();
  }

  /** The task ended and its time is up: its rows go, with those of any task left by a replica that stopped. */
  drop(taskId: string, ttlMs: number): void {
    this.published.delete(taskId);
    this.store.writeMany([
      { op: 'delete', table: 'call_tasks', where: { task_id: taskId } },
      { op: 'deleteBefore', table: 'call_tasks', before: { at: Date.now() - 2 * ttlMs } },
    ]);
  }

  /** The owner's task as its running replica last wrote it; throws for an unknown one or another owner's. */
  async view(owner: string, taskId: string): Promise<TaskView> {
    const rows = await this.store.read<{ owner: string; body: string; at: number }>(
      "SELECT owner, body, at FROM call_tasks WHERE task_id = ? AND kind = 'view'",
      [taskId],
    );
    const row = rows[0];
    if (!row || row.owner !== owner) throw unknownTask();
    const view = JSON.parse(row.body) as TaskView;
    if (Date.now() - Number(row.at) > 2 * view.ttlMs) throw unknownTask();
    return view;
  }

  /** Passes tasks/update or tasks/cancel on to the replica running the owner's task (nothing for a task that ended). */
  async pass(owner: string, taskId: string, kind: RequestKind, responses?: Record<string, unknown>): Promise<void> {
    const view = await this.view(owner, taskId);
    if (view.status === 'completed' || view.status === 'failed' || view.status === 'cancelled') return;
    this.store.writeMany([
      {
        op: 'upsert',
        table: 'call_tasks',
        row: { task_id: taskId, kind, owner, body: maskedJson(responses ?? {}), at: Date.now() },
      },
    ]);
    await this.store.acknowledged?.();
  }

  /** Reads the requests passed on for `runner`'s running tasks until none runs. */
  follow(runner: TaskRunner): void {
    if (this.poll) return;
    this.poll = setInterval(() => void this.take(runner), POLL_MS);
    this.poll.unref();
  }

  stop(): void {
    clearInterval(this.poll);
    this.poll = undefined;
  }

  private async take(runner: TaskRunner): Promise<void> {
    if (this.polling) return;
    const running = runner.running().map(({ owner, view }) => ({ owner, view, taskId: view.taskId }));
    if (running.length === 0) return this.stop();
    this.polling = true;
    try {
      const now = Date.now();
      for (const { owner, view } of running)
        if (now - (this.published.get(view.taskId) ?? 0) > view.ttlMs / 2) this.publish(owner, view);
      const owners = new Map(running.map((task) => [task.taskId, task.owner]));
      const rows = await this.store.read<{ task_id: string; kind: string; owner: string; body: string }>(
        `SELECT task_id, kind, owner, body FROM call_tasks WHERE kind IN ('update', ` +
          `'cancel') AND task_id IN (${running.map(() => '?').join(', ')})`,
        running.map((task) => task.taskId),
      );
      for (const row of rows) {
        this.store.writeMany([{ op: 'delete', table: 'call_tasks', where: { task_id: row.task_id, kind: row.kind } }]);
        // The request's owner is the task's, checked again where it runs.
        if (owners.get(row.task_id) !== row.owner) continue;
        try {
          if (row.kind === 'cancel') runner.cancel(row.owner, row.task_id);
          else runner.update(row.owner, row.task_id, JSON.parse(row.body) as Record<string, unknown>);
        } catch (error) {
          log.debug(`a ${row.kind} passed on for task ${row.task_id} was not applied: ${errorMessage(error)}`);
        }
      }
    } catch (error) {
      log.debug(`task requests from other replicas not read: ${errorMessage(error)}`);
    } finally {
      this.polling = false;
    }
  }
}

/**
 * JSON with secrets masked value by value (the text stays JSON): a string is masked as any text is,
 * and a property whose key and value together read as a secret (`"password": "..."`) is masked whole.
 */
function maskedJson(value: unknown): string {
  return JSON.stringify(maskPairs(value, 0));
}

function maskPairs(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return maskSecrets(value);
  if (depth > 20 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => maskPairs(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const pair = typeof item === 'string' ? JSON.stringify({ [key]: item }) : undefined;
    out[key] =
      pair !== undefined && maskSecrets(pair) !== pair && maskSecrets(item as string) === item
        ? MASK
        : maskPairs(item, depth + 1);
  }
  return out;
}
