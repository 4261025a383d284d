import type { UpstreamManager } from '../upstream/manager.js';
import { ProtocolError, UpstreamError } from '../upstream/errors.js';
import type { PowerDefinition } from '../powers/types.js';
import { errorMessage } from '../log.js';
import { errorResult, maskedErrorResult } from './results.js';
import type { Stage } from './pipeline.js';

/**
 * The upstream stage: forwards the call to the power's server, for the call's session and progress
 * (the context is the call's scope), and returns its result unchanged, but for the texts of an
 * error result, masked.
 */
export function forwardStage(manager: UpstreamManager, lookup: (power: string) => PowerDefinition | undefined): Stage {
  return async (context) => {
    const power = lookup(context.power);
    if (!power)
      return errorResult(`Power '${context.power}' is no longer configured; call resolve_intent to find another.`);
    try {
      const result = await manager
        .connection(power)
        .callTool(context.tool, context.args, { cancellation: context.cancellation, scope: context });
      return result.isError ? maskedErrorResult(result) : result;
    } catch (error) {
      if (error instanceof UpstreamError) return errorResult(error.message, { code: error.code, power: error.power });
      if (error instanceof ProtocolError) {
        return errorResult(`'${context.power}:${context.tool}' answered with an error: ${error.message}`, {
          code: error.code,
        });
      }
      return errorResult(`Call to '${context.power}:${context.tool}' failed: ${errorMessage(error)}`);
    }
  };
}
