import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ActivityLog } from '../activity/activity-log.js';
import { errorMessage, logger } from '../log.js';
import type { CallContext, Stage } from './pipeline.js';

const log = logger('activity');

const PRUNE_EVERY = 200;

/**
 * The first stage: every call, rejected ones included, lands in the activity log with its intent,
 * the validation decision and its outcome, written just after the answer is on its way (the
 * answer never waits for the log), except on a store whose writes a killed process could lose
 * (PostgreSQL: `acknowledged()`), where the answer waits for the record's commit (or its queueing
 * while the database is down); retention is applied every PRUNE_EVERY calls.
 */
export function recordStage(activity: ActivityLog, retention: () => { retentionDays: number; maxEntries: number }): Stage {
  let calls = 0;
  const record = (context: CallContext, result: CallToolResult | undefined, latencyMs: number): void => {
    try {
      activity.record({
        session: context.sessionId,
        power: context.power,
        tool: context.tool,
        variant: context.variant,
        operationType: context.intent?.operation_type,
        dataSensitivity: context.intent?.data_sensitivity,
        reason: context.intent?.reason,
        decision: context.validation?.decision ?? 'allowed',
        decisionReason: context.validation?.message,
        status: context.validation?.decision === 'rejected' ? 'rejected' : context.suggested ? 'suggested' : result && !result.isError ? 'ok' : 'error',
        error: context.validation?.decision === 'rejected' || context.suggested ? undefined : result?.isError ? firstText(result) : result ? undefined : 'the call threw',
        latencyMs,
        resultBytes: result ? Buffer.byteLength(JSON.stringify(result.content ?? [])) : 0,
        audit: context.audit,
      });
      calls += 1;
      if (calls % PRUNE_EVERY === 0) {
        const { retentionDays, maxEntries } = retention();
        activity.prune(retentionDays, maxEntries);
      }
    } catch (error) {
      log.warn(`could not record a call to ${context.power}:${context.tool}: ${errorMessage(error)}`);
    }
  };
  return async (context, next) => {
    let result: CallToolResult | undefined;
    try {
      result = await next();
      return result;
    } finally {
      const latencyMs = Date.now() - context.startedAt;
      const outcome = result;
      if (activity.acknowledges) {
        record(context, outcome, latencyMs);
        await activity.acknowledged().catch((error: unknown) => log.warn(`call record not committed: ${errorMessage(error)}`));
      } else {
        setImmediate(() => record(context, outcome, latencyMs));
      }
    }
  };
}

function firstText(result: CallToolResult): string | undefined {
  const text = result.content?.find((c) => c.type === 'text');
  return text && 'text' in text ? String(text.text).slice(0, 500) : undefined;
}
