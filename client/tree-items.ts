/** What the Powers tree shows, built from protocol payloads. No `vscode` import: powers-tree.ts makes TreeItems of it. */
import * as path from 'node:path';
import { POWER_SOURCE_LABELS, type LoadIssueInfo, type PowerInfo, type ToolInfo } from '../protocol/records.js';
import { inAgentsView, powerStateText } from '../protocol/power-state.js';
import { toolCountText, toolCounts, toolCountsText, toolStatus, type ToolStatus } from '../protocol/tool-counts.js';
import { eraOf } from '../protocol/protocol-era.js';

export { powerStateText, toolCountText, toolCounts, toolCountsText, toolStatus };

export interface IconModel {
  id: string;
  color?: string;
}

export interface ItemModel {
  id: string;
  label: string;
  description: string;
  tooltip: string;
  contextValue: string;
  icon: IconModel;
  collapsible: boolean;
}

export function powerIcon(power: PowerInfo): IconModel {
  if (power.state === 'crashed') return { id: 'error', color: 'errorForeground' };
  if (power.problems.length > 0 && power.state !== 'active')
    return { id: 'warning', color: 'problemsWarningIcon.foreground' };
  if (power.state === 'starting' || power.state === 'stopping') return { id: 'loading~spin' };
  // Green only where an agent has its tools.
  if (inAgentsView(power)) return { id: 'pass-filled', color: 'testing.iconPassed' };
  return power.active ? { id: 'circle-large-filled' } : { id: 'circle-large-outline' };
}

/** The toast after activation: which tools the agent has now, and which it does not (and why). */
export function activationMessage(power: PowerInfo): string {
  const counts = toolCounts(power);
  const n = counts.available;
  const are = n === 1 ? 'is' : 'are';
  const listed =
    power.tools.length === 0
      ? "its tools join the agent's list once its server lists them"
      : n === power.tools.length
        ? `its ${toolCountText(n)} ${are} in the agent's list`
        : n === 0
          ? "none of its tools is in the agent's list"
          : `${n} of its ${toolCountText(power.tools.length)} ${are} in the agent's list`;
  const withheld = [
    ...(counts.held
      ? [`${toolCountText(counts.held)} held for your review (${power.awaitingReview!.join(', ')})`]
      : []),
    ...(counts.blocked ? [`${toolCountText(counts.blocked)} blocked (${power.blocked!.join(', ')})`] : []),
  ];
  return `Grimoire: '${power.name}' is active; ${listed}${withheld.length ? `; ${withheld.join(', ')}` : ''}.`;
}

export function powerItem(power: PowerInfo): ItemModel {
  const lines = [
    `${power.name} ${power.version}: ${power.description}`,
    `State: ${powerStateText(power)}`,
    `In the tool list of ${power.agentSessions} agent session${power.agentSessions === 1 ? '' : 's'}`,
    `Source: ${POWER_SOURCE_LABELS[power.source.kind]} (${power.source.file})${power.source.readOnly ? ', read-only' : ''}`,
    ...(power.protocolVersion ? [`MCP revision: ${power.protocolVersion} (${eraOf(power.protocolVersion)})`] : []),
    ...power.problems.map((problem) => `Problem: ${problem}`),
    ...(power.lastError ? [`Last error: ${power.lastError}`] : []),
    ...(power.awaitingLaunch
      ? [`Waiting for your approval to run: ${power.awaitingLaunch.command} (Grimoire: Review Server Launches...)`]
      : []),
  ];
  return {
    id: `power:${power.name}`,
    label: power.name,
    description: `${powerStateText(power)} · ${toolCountsText(toolCounts(power))} · ${POWER_SOURCE_LABELS[power.source.kind]}`,
    tooltip: lines.join('\n'),
    contextValue: `grimoire.power.${power.active ? 'active' : 'inactive'}`,
    icon: powerIcon(power),
    collapsible: power.tools.length > 0,
  };
}

export function annotationTags(tool: ToolInfo): string[] {
  const a = tool.annotations;
  const tags: string[] = [];
  if (a.readOnlyHint) tags.push('read-only');
  if (a.destructiveHint) tags.push('destructive');
  if (a.idempotentHint) tags.push('idempotent');
  if (a.openWorldHint) tags.push('open-world');
  return tags;
}

const STATUS_TEXT: Record<Exclude<ToolStatus, 'available'>, string> = { held: 'held for review', blocked: 'blocked' };

export function toolItem(power: PowerInfo, tool: ToolInfo): ItemModel {
  const tags = annotationTags(tool);
  const status = toolStatus(power, tool.name);
  const statusText = status === 'available' ? undefined : STATUS_TEXT[status];
  return {
    id: `tool:${power.name}:${tool.name}`,
    label: tool.name,
    description: [statusText, tags.join(', ')].filter(Boolean).join(' · '),
    tooltip: [
      tool.title ?? tool.name,
      statusText && `Not in the agent's list: ${statusText}.`,
      tool.description,
      tags.length ? `Annotations: ${tags.join(', ')}` : 'No annotations',
    ]
      .filter(Boolean)
      .join('\n\n'),
    contextValue: status === 'available' ? 'grimoire.tool' : `grimoire.tool.${status}`,
    icon:
      status === 'held'
        ? { id: 'diff', color: 'problemsWarningIcon.foreground' }
        : status === 'blocked'
          ? { id: 'circle-slash' }
          : tool.annotations.destructiveHint
            ? { id: 'warning' }
            : tool.annotations.readOnlyHint
              ? { id: 'eye' }
              : { id: 'tools' },
    collapsible: false,
  };
}

export function issueItem(issue: LoadIssueInfo): ItemModel {
  return {
    id: `issue:${issue.file}:${issue.field}:${issue.message}`,
    label: path.basename(issue.file),
    description: issue.message,
    tooltip:
      `${issue.file}${issue.line === undefined ? '' : `:${issue.line}`}` +
      `${issue.field ? ` (${issue.field})` : ''}\n${issue.message}\nFix: ${issue.fix}`,
    contextValue: 'grimoire.issue',
    icon:
      issue.severity === 'warning'
        ? { id: 'warning', color: 'problemsWarningIcon.foreground' }
        : { id: 'error', color: 'problemsErrorIcon.foreground' },
    collapsible: false,
  };
}
