/** The tool review over JSON-RPC: the held tools with their diff, approve and keep-blocked; the reads the user confirms once. */
import { toolReviewInfo } from '../trust/review-info.js';
import type { ToolTrust } from '../trust/tool-trust.js';
import type { GatewayPorts } from '../gateway/ports.js';
import { splitQualifiedName } from '../gateway/tool-names.js';
import type { ReadCandidatesPayload, ToolChangesPayload } from '../../protocol/records.js';
import type { ConfirmReadsParams, ToolReviewParams } from '../../protocol/extension-methods.js';

export interface ReviewPorts extends Pick<GatewayPorts, 'readCandidates' | 'confirmReads'> {
  trust: Pick<ToolTrust, 'changes' | 'approve' | 'reject'>;
}

export function readCandidatesPayload(ports: ReviewPorts, refused?: string[]): ReadCandidatesPayload {
  const reads = ports
    .readCandidates()
    .map(({ power, tool, description, status }) => ({ power, tool, description, status }));
  return { reads, ...(refused?.length ? { refused } : {}) };
}

/** The user's confirmation from the editor's review (the extension host: never an MCP client). */
export function confirmReadsRequest(ports: ReviewPorts, params: ConfirmReadsParams): ReadCandidatesPayload {
  if (!Array.isArray(params?.tools) || params.tools.length === 0)
    throw new Error("Name the tools to confirm read-only, as 'power:tool'.");
  const targets = params.tools.map((name) => {
    const target = typeof name === 'string' ? splitQualifiedName(name) : undefined;
    if (!target) throw new Error(`'${String(name).slice(0, 100)}' does not name a tool as 'power:tool'.`);
    return target;
  });
  return readCandidatesPayload(ports, ports.confirmReads(targets).refused);
}

export function toolChanges(ports: ReviewPorts): ToolChangesPayload {
  return { reviews: ports.trust.changes().map(toolReviewInfo) };
}

export function approveTool(ports: ReviewPorts, params: ToolReviewParams): ToolChangesPayload {
  if (!params?.power) throw new Error('Name the power (and the tool) to approve.');
  if (ports.trust.approve(params.power, params.tool).length === 0)
    throw new Error(`Nothing awaits review for '${params.tool ? `${params.power}:${params.tool}` : params.power}'.`);
  return toolChanges(ports);
}

export function rejectTool(ports: ReviewPorts, params: ToolReviewParams): ToolChangesPayload {
  if (!params?.power || !params.tool) throw new Error('Name the power and the tool to keep blocked.');
  if (!ports.trust.reject(params.power, params.tool))
    throw new Error(`'${params.power}:${params.tool}' does not await review.`);
  return toolChanges(ports);
}
