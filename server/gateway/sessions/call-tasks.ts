/**
 * Tool calls of 2026-07-28 clients that outlast the client's wait, as tasks of the
 * `io.modelcontextprotocol/tasks` extension. A call its client declared the extension for, still
 * running after the gateway's bound, is answered with a task handle (`resultType: "task"`) and keeps
 * running; `tasks/get` tells its status and, once it ended, its result or error; a question its
 * power asks meanwhile shows as `input_required` with `inputRequests`, answered by `tasks/update`;
 * `tasks/cancel` cancels the call. A task is its caller's (the session, which over HTTP is the
 * user's): every method finds it by its owner and id, and another caller's handle is unknown.
 * On a store that spans machines, every replica answers for a task made shared (a modern HTTP
 * user's: shared-tasks.ts); a stdio connection's tasks stay its own process's.
 */
import { randomUUID } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode, type InputRequest } from '@modelcontextprotocol/server';
import type { CallToolResult } from '../../util/mcp-types.js';
import { errorMessage } from '../../log.js';
import { maskSecrets } from '../../util/secrets.js';
import type { Question, RunningCall } from './input-bridge.js';
import { SharedTasks, unknownTask, type TaskRunner } from './shared-tasks.js';
import type { TaskStatus, TaskView } from './task-view.js';
import type { Store } from '../../store/store-interface.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** How long a task is kept after its last change (the spec's `ttlMs`). */
const TASK_TTL_MS = 10 * 60_000;
/** The polling interval suggested to clients. */
const POLL_INTERVAL_MS = 1000;
/** At most this many ended tasks are kept per owner (the oldest is dropped first). */
const MAX_ENDED_PER_OWNER = 100;

interface CallTask {
  owner: string;
  /** Written to the store for the other replicas. */
  shared: boolean;
  view: TaskView;
  running: RunningCall;
  question?: { key: string; asked: Question; timer: NodeJS.Timeout };
  expiry?: NodeJS.Timeout;
}

const stores = new WeakMap<object, CallTasks>();

/**
 * The gateway's one task store (a modern HTTP user's requests each have their own Server), shared with the
 * other replicas when its store spans machines.
 */
export function callTasksOf(gateway: { ports: { store: Store } }, questionWaitMs: number): CallTasks {
  let store = stores.get(gateway);
  if (!store)
    stores.set(
      gateway,
      (store = new CallTasks(
        questionWaitMs,
        gateway.ports.store.spansMachines ? new SharedTasks(gateway.ports.store) : undefined,
      )),
    );
  return store;
}

/** Whether a request's declared capabilities include the tasks extension. */
export function declaresTasks(capabilities: { extensions?: Record<string, unknown> } | undefined): boolean {
  return Boolean(capabilities?.extensions && TASKS_EXTENSION in capabilities.extensions);
}

export class CallTasks implements TaskRunner {
  private readonly tasks = new Map<string, CallTask>();

  constructor(
    private readonly questionWaitMs: number,
    /** Present when other replicas answer for these tasks too. */
    readonly shared?: SharedTasks,
  ) {}

  /**
   * A task for a running call of `owner`. `finish(result)` shapes the call's result as the request
   * would have answered it. `share`: every replica answers for it (when the store spans machines).
   */
  create(
    owner: string,
    running: RunningCall,
    finish: (result: CallToolResult) => CallToolResult,
    share = false,
  ): TaskView {
    const now = new Date().toISOString();
    const task: CallTask = {
      owner,
      shared: share && this.shared !== undefined,
      running,
      view: {
        taskId: randomUUID(),
        status: 'working',
        createdAt: now,
        lastUpdatedAt: now,
        ttlMs: TASK_TTL_MS,
        pollIntervalMs: POLL_INTERVAL_MS,
      },
    };
    this.tasks.set(task.view.taskId, task);
    if (task.shared) {
      this.shared!.publish(owner, task.view);
      this.shared!.follow(this);
    }
    void this.follow(task, running.next, finish);
    return { ...task.view };
  }

  /** Whether this replica holds the task (whoever owns it). */
  holds(taskId: string): boolean {
    return this.tasks.has(taskId);
  }

  /** The shared tasks still running, with their owners (what other replicas may pass requests on to). */
  running(): Array<{ owner: string; view: TaskView }> {
    return [...this.tasks.values()]
      .filter((task) => task.shared && !isEnded(task.view.status))
      .map((task) => ({ owner: task.owner, view: task.view }));
  }

  get(owner: string, taskId: string): TaskView {
    return { ...this.find(owner, taskId).view };
  }

  /** Answers the task's pending question with the response under its key; other keys are ignored. */
  update(owner: string, taskId: string, responses: Record<string, unknown> | undefined): void {
    const task = this.find(owner, taskId);
    const pending = task.question;
    if (!pending || responses?.[pending.key] === undefined) return;
    this.settleQuestion(task);
    pending.asked.answer(responses[pending.key]);
  }

  /** Cancels the task's call; an ended task stays as it ended. */
  cancel(owner: string, taskId: string): void {
    const task = this.find(owner, taskId);
    if (isEnded(task.view.status)) return;
    const pending = task.question;
    this.settleQuestion(task);
    pending?.asked.refuse(new ProtocolError(ProtocolErrorCode.InvalidRequest, 'The task was cancelled.'));
    this.end(task, { status: 'cancelled', statusMessage: 'Cancelled by the client.' });
    task.running.call.abort(new Error('The task was cancelled.'));
  }

  /** The owner is gone (its connection closed): its running tasks' calls are cancelled and all its tasks dropped. */
  closeOwner(owner: string): void {
    for (const task of [...this.tasks.values()]) {
      if (task.owner !== owner) continue;
      if (!isEnded(task.view.status)) this.cancel(owner, task.view.taskId);
      clearTimeout(task.expiry);
      this.forget(task);
    }
  }

  private forget(task: CallTask): void {
    this.tasks.delete(task.view.taskId);
    if (task.shared) this.shared!.drop(task.view.taskId, TASK_TTL_MS);
  }

  /** How many tasks the store holds (for tests of its bounds). */
  get size(): number {
    return this.tasks.size;
  }

  private find(owner: string, taskId: unknown): CallTask {
    const task = typeof taskId === 'string' ? this.tasks.get(taskId) : undefined;
    if (!task || task.owner !== owner) throw unknownTask();
    return task;
  }

  /** Follows the call to its end: each question its power asks makes the task input_required until answered. */
  private async follow(
    task: CallTask,
    question: Promise<Question>,
    finish: (result: CallToolResult) => CallToolResult,
  ): Promise<void> {
    const { call } = task.running;
    for (;;) {
      const step = await Promise.race([
        call.result.then(
          (result) => ({ result }),
          (error: unknown) => ({ error }),
        ),
        question.then((asked) => ({ asked })),
      ]);
      if (isEnded(task.view.status)) {
        if ('asked' in step)
          step.asked.refuse(new ProtocolError(ProtocolErrorCode.InvalidRequest, 'The task was cancelled.'));
        return;
      }
      if ('result' in step) return this.end(task, { status: 'completed', result: finish(step.result) });
      if ('error' in step)
        return this.end(task, {
          status: 'failed',
          error: { code: ProtocolErrorCode.InternalError, message: maskSecrets(errorMessage(step.error)) },
        });
      await this.ask(task, step.asked);
      question = call.questions.next();
    }
  }

  /** Shows the power's question as input_required until tasks/update answers it or the wait ends (then the power's request is refused). */
  private ask(task: CallTask, asked: Question): Promise<void> {
    const key = asked.method.replace(/\W+/g, '_');
    return new Promise((resolve) => {
      const answered = {
        ...asked,
        answer: (value: unknown) => (asked.answer(value), resolve()),
        refuse: (error: Error) => (asked.refuse(error), resolve()),
      } as Question;
      const timer = setTimeout(() => {
        this.settleQuestion(task);
        answered.refuse(
          new ProtocolError(
            ProtocolErrorCode.InvalidRequest,
            `The client did not answer within ${Math.round(this.questionWaitMs / 1000)} s.`,
          ),
        );
      }, this.questionWaitMs);
      timer.unref();
      task.question = { key, asked: answered, timer };
      this.change(task, {
        status: 'input_required',
        inputRequests: { [key]: { method: asked.method, params: asked.params } as InputRequest },
      });
    });
  }

  private settleQuestion(task: CallTask): void {
    if (!task.question) return;
    clearTimeout(task.question.timer);
    task.question = undefined;
    if (task.view.status === 'input_required') this.change(task, { status: 'working', inputRequests: undefined });
  }

  private change(task: CallTask, fields: Partial<TaskView>): void {
    const view: TaskView = { ...task.view, ...fields, lastUpdatedAt: new Date().toISOString() };
    for (const key of Object.keys(view) as Array<keyof TaskView>) if (view[key] === undefined) delete view[key];
    task.view = view;
    if (task.shared) this.shared!.publish(task.owner, view);
  }

  private end(task: CallTask, fields: Partial<TaskView>): void {
    this.change(task, { ...fields, inputRequests: undefined });
    task.expiry = setTimeout(() => this.forget(task), TASK_TTL_MS);
    task.expiry.unref();
    this.dropOldEnded(task.owner);
  }

  private dropOldEnded(owner: string): void {
    const ended = [...this.tasks.values()].filter((t) => t.owner === owner && isEnded(t.view.status));
    for (const old of ended.slice(0, Math.max(0, ended.length - MAX_ENDED_PER_OWNER))) {
      clearTimeout(old.expiry);
      this.forget(old);
    }
  }
}

function isEnded(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}
