/**
 * The summarize stage, just before the upstream call: an identical earlier call is answered from the
 * cache only for a tool its spell opts in with `cache: { ttlSeconds }`; a non-read-only call marks the
 * power written (its cached results stop counting); a large result is replaced by its summary.
 */
import type { Tool } from '../util/mcp-types.js';
import type { Stage } from '../calls/pipeline.js';
import type { Intel } from './intel.js';

export function summarizeStage(intel: Intel, lookupTool: (power: string, tool: string) => Tool | undefined): Stage {
  return async (context, next) => {
    const tool = lookupTool(context.power, context.tool);
    const cached = await intel.serveFromCache(context, tool);
    if (cached) return cached;
    const readOnly = context.annotations.readOnlyHint === true;
    if (!readOnly) intel.noteWrite(context.power, context.startedAt);
    const result = await next();
    if (!readOnly) intel.noteWrite(context.power, intel.now());
    return intel.process(context, result, tool);
  };
}
