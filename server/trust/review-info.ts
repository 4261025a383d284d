import type { ToolReviewInfo } from '../../protocol/records.js';
import { describeDiff } from './diff.js';
import type { Review } from './pins.js';

/** A held tool as the editor's review and the REST API show it: the record of protocol/records.ts. */
export function toolReviewInfo(review: Review): ToolReviewInfo {
  const version = (tool: Review['new']) => ({
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    inputSchema: tool.inputSchema,
    ...(tool.annotations ? { annotations: tool.annotations as Record<string, unknown> } : {}),
  });
  return {
    power: review.power,
    tool: review.tool,
    kind: review.kind,
    status: review.status,
    seenAt: review.seenAt,
    changes: describeDiff(review.diff),
    diff: review.diff,
    suspicious: review.suspicious,
    ...(review.old ? { old: version(review.old) } : {}),
    new: version(review.new),
  };
}
