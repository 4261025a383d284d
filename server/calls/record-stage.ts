import type { CallToolResult } from '../util/mcp-types.js';
import { unrecorded, type ActivityCall, type ActivityLog } from '../activity/activity-log.js';
import { errorMessage, logger } from '../log.js';
import type { CallContext, Stage } from './pipeline.js';
import type { RecordingGate } from './recording-gate.js';

const log = logger('activity');

/**
 * Retention runs once per this many recorded calls. A pass counts the table and reads the ids over
 * the cap before it deletes them: at the 10,000-row cap, a pass every 1,000 calls costs each call
 * 3.7-5.0 µs, one every 200 calls 6.5-6.7 µs (`npm run bench:retention`). The table holds at most
 * this many calls over its cap.
 */
export const PRUNE_EVERY = 1000;

interface Finished {
  context: CallContext;
  result: CallToolResult | undefined;
  at: number;
}

/**
 * The first stage: every call, rejected ones included, lands in the activity log with its intent,
 * the validation decision and its outcome, committed before its answer is sent, so that a killed
 * gateway loses no answered call's record (group commit: the calls that finish in one turn of the
 * event loop are written together at its end, and their answers wait for that one write; on
 * PostgreSQL, for its commit too: `acknowledged()`, or its queueing while the database is down).
 * A call whose record cannot be committed is answered with that error, and while the store stays
 * unwritable no tool is called (recording-gate.ts). Retention is applied every PRUNE_EVERY calls.
 */
export function recordStage(
  activity: ActivityLog,
  retention: () => { retentionDays: number; maxEntries: number },
  gate: RecordingGate,
): Stage {
  let calls = 0;
  let waiting: Finished[] = [];
  let written: Promise<unknown> | undefined;
  let pruning = false;
  /** Undefined once the calls are committed; otherwise why they are not. */
  const write = (finished: Finished[]): unknown => {
    try {
      activity.recordMany(finished.map((f) => entryOf(f.context, f.result, f.at)));
    } catch (error) {
      log.warn(
        unrecorded(
          finished.map((f) => f.context),
          error,
        ),
      );
      gate.failed(error, finished.length);
      return error;
    }
    const before = calls;
    calls += finished.length;
    if (pruning || Math.floor(calls / PRUNE_EVERY) === Math.floor(before / PRUNE_EVERY)) return undefined;
    pruning = true;
    const { retentionDays, maxEntries } = retention();
    activity
      .prune(retentionDays, maxEntries)
      .catch((error) => log.warn(`could not apply the activity retention: ${errorMessage(error)}`))
      .finally(() => (pruning = false));
    return undefined;
  };
  const endOfTurn = (): Promise<unknown> =>
    new Promise((resolve) =>
      setImmediate(() => {
        const finished = waiting;
        waiting = [];
        written = undefined;
        resolve(write(finished));
      }),
    );
  const acknowledged = (): Promise<unknown> =>
    activity.acknowledged().then(
      () => undefined,
      (error: unknown) => {
        log.warn(`call record not committed: ${errorMessage(error)}`);
        gate.failed(error, 1);
        return error;
      },
    );
  return async (context, next) => {
    const refused = gate.refusal();
    const refusal = refused && (await refused);
    if (refusal) return refusal;
    let result: CallToolResult | undefined;
    let thrown: { error: unknown } | undefined;
    try {
      result = await next();
    } catch (error) {
      thrown = { error };
    }
    waiting.push({ context, result, at: Date.now() });
    const failure = (await (written ??= endOfTurn())) ?? (await acknowledged());
    if (failure !== undefined) return gate.unrecorded(failure, context.power, context.tool);
    if (thrown) throw thrown.error;
    return result!;
  };
}

function entryOf(context: CallContext, result: CallToolResult | undefined, at: number): ActivityCall {
  const rejected = context.validation?.decision === 'rejected';
  return {
    at,
    session: context.sessionId,
    power: context.power,
    tool: context.tool,
    variant: context.variant,
    operationType: context.intent?.operation_type,
    dataSensitivity: context.intent?.data_sensitivity,
    reason: context.intent?.reason,
    decision: context.validation?.decision ?? 'allowed',
    decisionReason: context.validation?.message,
    status: rejected ? 'rejected' : context.suggested ? 'suggested' : result && !result.isError ? 'ok' : 'error',
    error:
      rejected || context.suggested
        ? undefined
        : result?.isError
          ? firstText(result)
          : result
            ? undefined
            : 'the call threw',
    latencyMs: at - context.startedAt,
    resultBytes: result ? Buffer.byteLength(JSON.stringify(result.content ?? [])) : 0,
    audit: context.audit,
  };
}

function firstText(result: CallToolResult): string | undefined {
  const text = result.content?.find((c) => c.type === 'text');
  return text && 'text' in text ? String(text.text).slice(0, 500) : undefined;
}
