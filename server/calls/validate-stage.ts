import { errorResult } from './results.js';
import { validateIntent } from './intent-validation.js';
import type { Stage } from './pipeline.js';

/** Intent-declared calls are checked against the tool's annotations before anything reaches the server. */
export function validateStage(strict: () => boolean): Stage {
  return async (context, next) => {
    if (context.variant === 'direct') return next();
    const started = performance.now();
    context.validation = validateIntent(
      context.variant,
      context.intent,
      `${context.power}:${context.tool}`,
      context.annotations,
      strict(),
    );
    const validationMs = performance.now() - started;
    if (context.validation.decision === 'rejected') {
      return errorResult(context.validation.message!, {
        code: 'intent_rejected',
        tool: `${context.power}:${context.tool}`,
        annotations: context.annotations,
        validation_ms: round(validationMs),
      });
    }
    const result = await next();
    if (context.validation.decision === 'warned') {
      return {
        ...result,
        content: [...(result.content ?? []), { type: 'text', text: `Grimoire: ${context.validation.message}` }],
      };
    }
    return result;
  };
}

const round = (x: number) => Math.round(x * 1000) / 1000;
