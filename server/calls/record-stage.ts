import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ActivityLog } from '../activity/activity-log.js';
import { errorMessage, logger } from '../log.js';
import type { Stage } from './pipeline.js';

const log = logger('activity');

/** The last stage before the upstream call: every call lands in the activity log with its outcome. */
export function recordStage(activity: ActivityLog): Stage {
  return async (context, next) => {
    let result: CallToolResult | undefined;
    try {
      result = await next();
      return result;
    } finally {
      try {
        activity.record({
          session: context.sessionId,
          power: context.power,
          tool: context.tool,
          variant: 'direct',
          decision: 'allowed',
          status: result && !result.isError ? 'ok' : 'error',
          error: result?.isError ? firstText(result) : result ? undefined : 'the call threw',
          latencyMs: Date.now() - context.startedAt,
          resultBytes: result ? Buffer.byteLength(JSON.stringify(result.content ?? [])) : 0,
        });
      } catch (error) {
        log.warn(`could not record a call to ${context.power}:${context.tool}: ${errorMessage(error)}`);
      }
    }
  };
}

function firstText(result: CallToolResult): string | undefined {
  const text = result.content?.find((c) => c.type === 'text');
  return text && 'text' in text ? String(text.text).slice(0, 500) : undefined;
}
