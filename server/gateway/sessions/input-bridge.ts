/**
 * A 2025 power's requests to the client (elicitation, sampling, roots) during a 2026-07-28
 * client's call. That client takes no request from the server: its call is answered with
 * `input_required` naming what the power asked, and the power's request waits. The client's retry
 * (same session, the gateway-minted `requestState`, the answer in `inputResponses`) answers the
 * power's request and waits again for the call's result or the power's next question. A retry
 * names its own call only: a handle is found by its session and nobody else's; a handle nobody
 * retries within the wait is dropped and the power's request refused.
 */
import { randomBytes } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode, type InputRequest } from '@modelcontextprotocol/server';
import type { CallToolResult } from '../../util/mcp-types.js';
import type {
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  ListRootsResult,
} from '@modelcontextprotocol/client';

export type Question = InputRequest & { answer(value: unknown): void; refuse(error: Error): void };

/** The questions a running call's power asks, one at a time, in order. */
class Questions {
  private waiting: Question[] = [];
  private listener?: (question: Question) => void;

  ask(request: InputRequest): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const question = { ...request, answer: resolve, refuse: reject } as Question;
      if (this.listener) {
        const listener = this.listener;
        this.listener = undefined;
        listener(question);
      } else this.waiting.push(question);
    });
  }

  next(): Promise<Question> {
    const first = this.waiting.shift();
    if (first) return Promise.resolve(first);
    return new Promise((resolve) => (this.listener = resolve));
  }

  /** Refuses the questions still waiting with `error()`, made only when one waits (an Error's stack costs a call microseconds). */
  refuseAll(error: () => Error): void {
    const waiting = this.waiting.splice(0);
    this.listener = undefined;
    if (waiting.length === 0) return;
    const refusal = error();
    for (const question of waiting) question.refuse(refusal);
  }
}

export interface OpenCall {
  result: Promise<CallToolResult>;
  questions: Questions;
  /** Cancels the call (the client cancelled the request waiting on it). */
  abort(reason: unknown): void;
}

interface Parked {
  owner: string;
  call: OpenCall;
  question: Question;
  key: string;
  timer: NodeJS.Timeout;
}

/** A call still running when its request stopped waiting: `next` is the power's next question (tasks take it from here, call-tasks.ts). */
export interface RunningCall {
  call: OpenCall;
  next: Promise<Question>;
}

export type BridgedOutcome =
  | { result: CallToolResult }
  | { inputRequests: Record<string, InputRequest>; requestState: string }
  | { running: RunningCall };

const bridges = new WeakMap<object, InputBridge>();

/** The gateway's one bridge (every session's parked calls, so that a retry is matched to its session on any transport). */
export function inputBridgeOf(gateway: object, waitMs: number): InputBridge {
  let bridge = bridges.get(gateway);
  if (!bridge) bridges.set(gateway, (bridge = new InputBridge(waitMs)));
  return bridge;
}

export class InputBridge {
  private readonly parked = new Map<string, Parked>();
  /** Per session, its calls running now (a power's question goes to the only one; with several it is refused). */
  private readonly open = new Map<string, Set<OpenCall>>();

  constructor(private readonly waitMs: number) {}

  /** What a session's running call's power asks goes here (ClientFeatureHub's SessionPeer for a modern session). */
  peer(sessionId: string) {
    const route = (request: InputRequest): Promise<unknown> => {
      const calls = this.open.get(sessionId);
      if (!calls || calls.size !== 1) {
        return Promise.reject(
          new ProtocolError(
            ProtocolErrorCode.InvalidRequest,
            calls?.size
              ? `${calls.size} calls of the session are running: the request does not say which it serves, so it goes to none.`
              : 'No call of the session is running.',
          ),
        );
      }
      return [...calls][0].questions.ask(request);
    };
    // The client's answer goes to the power as the result of its request; the power's SDK checks its shape, as it would the client's own.
    return {
      elicit: (params: ElicitRequest['params']) =>
        route({ method: 'elicitation/create', params } as InputRequest) as Promise<ElicitResult>,
      createMessage: (params: CreateMessageRequest['params']) =>
        route({ method: 'sampling/createMessage', params } as InputRequest) as Promise<CreateMessageResult>,
      listRoots: () => route({ method: 'roots/list', params: {} } as InputRequest) as Promise<ListRootsResult>,
    };
  }

  /**
   * Starts a call for a session and answers with its result, or with the first question its power
   * asks. `signal`: the request's; while a request waits on the call, its cancellation cancels it.
   */
  start(
    sessionId: string,
    run: () => Promise<CallToolResult>,
    abort: (reason: unknown) => void,
    signal: AbortSignal,
    taskAfterMs?: number,
  ): Promise<BridgedOutcome> {
    const call: OpenCall = {
      result: undefined as unknown as Promise<CallToolResult>,
      questions: new Questions(),
      abort,
    };
    let calls = this.open.get(sessionId);
    if (!calls) this.open.set(sessionId, (calls = new Set()));
    calls.add(call);
    call.result = run().finally(() => {
      calls.delete(call);
      if (calls.size === 0 && this.open.get(sessionId) === calls) this.open.delete(sessionId);
      call.questions.refuseAll(() => new ProtocolError(ProtocolErrorCode.InvalidRequest, 'The call already ended.'));
    });
    return this.await(sessionId, call, signal, taskAfterMs);
  }

  /** Whether a retry's `requestState` is a handle this gateway minted (for any session). */
  knows(state: unknown): state is string {
    return typeof state === 'string' && this.parked.has(state);
  }

  /**
   * A retry: answers the power's question with the client's response and waits for what comes next. Throws
   * for another session's handle.
   */
  resume(
    sessionId: string,
    state: string,
    responses: Record<string, unknown> | undefined,
    signal: AbortSignal,
    taskAfterMs?: number,
  ): Promise<BridgedOutcome> {
    const parked = this.parked.get(state);
    if (!parked || parked.owner !== sessionId)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        'This requestState names no call of this session (it expired, was answered, or is not yours).',
      );
    this.parked.delete(state);
    clearTimeout(parked.timer);
    const response = responses?.[parked.key];
    if (response === undefined)
      parked.question.refuse(
        new ProtocolError(ProtocolErrorCode.InvalidRequest, 'The client did not answer the request.'),
      );
    else parked.question.answer(response);
    return this.await(sessionId, parked.call, signal, taskAfterMs);
  }

  /**
   * Waits for the call's result or its power's next question; with `taskAfterMs`, for at most that
   * long, then answers with the call still running (the client takes a task).
   */
  private async await(
    sessionId: string,
    call: OpenCall,
    signal: AbortSignal,
    taskAfterMs?: number,
  ): Promise<BridgedOutcome> {
    const cancel = () => call.abort(signal.reason);
    if (signal.aborted) cancel();
    else signal.addEventListener('abort', cancel, { once: true });
    const question = call.questions.next();
    let bound: NodeJS.Timeout | undefined;
    const late =
      taskAfterMs === undefined
        ? undefined
        : new Promise<{ late: true }>((resolve) => (bound = setTimeout(() => resolve({ late: true }), taskAfterMs)));
    let next: { result: CallToolResult } | { question: Question } | { late: true };
    try {
      next = await Promise.race([
        call.result.then((result) => ({ result })),
        question.then((asked) => ({ question: asked })),
        ...(late ? [late] : []),
      ]);
    } finally {
      clearTimeout(bound);
      signal.removeEventListener('abort', cancel);
    }
    if ('late' in next) return { running: { call, next: question } };
    if ('result' in next) return next;
    const state = randomBytes(18).toString('base64url');
    const key = next.question.method.replace(/\W+/g, '_');
    const timer = setTimeout(() => {
      if (this.parked.delete(state))
        next.question.refuse(
          new ProtocolError(
            ProtocolErrorCode.InvalidRequest,
            `The client did not retry within ${Math.round(this.waitMs / 1000)} s.`,
          ),
        );
    }, this.waitMs);
    timer.unref();
    this.parked.set(state, { owner: sessionId, call, question: next.question, key, timer });
    const request = { method: next.question.method, params: next.question.params } as InputRequest;
    return { inputRequests: { [key]: request }, requestState: state };
  }
}
