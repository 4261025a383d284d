import type { Tool } from '../util/mcp-types.js';
import type { ToolDiff } from '../../protocol/records.js';
import { stableJson } from '../../shared/hash.js';

/** The part of a tool that is pinned: what the agent reads and what validation trusts. */
export type PinnedTool = Pick<Tool, 'name' | 'description' | 'inputSchema' | 'annotations'>;

export function toolDiff(before: PinnedTool | undefined, after: PinnedTool): ToolDiff {
  const diff: ToolDiff = {};
  const oldDescription = before?.description ?? '';
  const newDescription = after.description ?? '';
  if (oldDescription !== newDescription) diff.description = { old: oldDescription, new: newDescription };

  const oldProps = properties(before);
  const newProps = properties(after);
  const oldRequired = new Set(before?.inputSchema?.required ?? []);
  const newRequired = new Set(after.inputSchema?.required ?? []);
  const schema = {
    added: [...newProps.keys()].filter((k) => !oldProps.has(k)),
    removed: [...oldProps.keys()].filter((k) => !newProps.has(k)),
    changed: [...newProps.keys()].filter(
      (k) => oldProps.has(k) && stableJson(oldProps.get(k)) !== stableJson(newProps.get(k)),
    ),
    requiredAdded: [...newRequired].filter((k) => !oldRequired.has(k)),
    requiredRemoved: [...oldRequired].filter((k) => !newRequired.has(k)),
  };
  const otherSchemaChange =
    stableJson({ ...before?.inputSchema, properties: undefined, required: undefined }) !==
    stableJson({ ...after.inputSchema, properties: undefined, required: undefined });
  if (Object.values(schema).some((list) => list.length > 0) || (before && otherSchemaChange)) diff.schema = schema;

  const oldAnnotations = (before?.annotations ?? {}) as Record<string, unknown>;
  const newAnnotations = (after.annotations ?? {}) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(oldAnnotations), ...Object.keys(newAnnotations)])].sort();
  const annotations = keys
    .filter((key) => stableJson(oldAnnotations[key] ?? null) !== stableJson(newAnnotations[key] ?? null))
    .map((key) => ({ key, old: oldAnnotations[key], new: newAnnotations[key] }));
  if (annotations.length > 0) diff.annotations = annotations;
  return diff;
}

/** One line per change, for the CLI and notifications. */
export function describeDiff(diff: ToolDiff): string[] {
  const lines: string[] = [];
  if (diff.description) lines.push('description changed');
  if (diff.schema) {
    const s = diff.schema;
    if (s.added.length) lines.push(`parameters added: ${s.added.join(', ')}`);
    if (s.removed.length) lines.push(`parameters removed: ${s.removed.join(', ')}`);
    if (s.changed.length) lines.push(`parameters changed: ${s.changed.join(', ')}`);
    if (s.requiredAdded.length) lines.push(`now required: ${s.requiredAdded.join(', ')}`);
    if (s.requiredRemoved.length) lines.push(`no longer required: ${s.requiredRemoved.join(', ')}`);
    if (
      !s.added.length &&
      !s.removed.length &&
      !s.changed.length &&
      !s.requiredAdded.length &&
      !s.requiredRemoved.length
    )
      lines.push('input schema changed');
  }
  for (const a of diff.annotations ?? [])
    lines.push(`${a.key}: ${JSON.stringify(a.old) ?? 'unset'} -> ${JSON.stringify(a.new) ?? 'unset'}`);
  return lines;
}

function properties(tool: PinnedTool | undefined): Map<string, unknown> {
  return new Map(Object.entries((tool?.inputSchema?.properties ?? {}) as Record<string, unknown>));
}
