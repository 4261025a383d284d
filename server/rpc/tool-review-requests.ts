/** The tool review over JSON-RPC: the held tools with their diff, approve and keep-blocked. */
import { toolReviewInfo } from '../trust/review-info.js';
import type { ToolTrust } from '../trust/tool-trust.js';
import type { ToolChangesPayload } from '../../protocol/records.js';
import type { ToolReviewParams } from '../../protocol/extension-methods.js';

export interface ReviewPorts {
  trust: Pick<ToolTrust, 'changes' | 'approve' | 'reject'>;
}

export function toolChanges(ports: ReviewPorts): ToolChangesPayload {
  return { reviews: ports.trust.changes().map(toolReviewInfo) };
}

export function approveTool(ports: ReviewPorts, params: ToolReviewParams): ToolChangesPayload {
  if (!params?.power) throw new Error('Name the power (and the tool) to approve.');
  if (ports.trust.approve(params.power, params.tool).length === 0) throw new Error(`Nothing awaits review for '${params.tool ? `${params.power}:${params.tool}` : params.power}'.`);
  return toolChanges(ports);
}

export function rejectTool(ports: ReviewPorts, params: ToolReviewParams): ToolChangesPayload {
  if (!params?.power || !params.tool) throw new Error('Name the power and the tool to keep blocked.');
  if (!ports.trust.reject(params.power, params.tool)) throw new Error(`'${params.power}:${params.tool}' does not await review.`);
  return toolChanges(ports);
}
