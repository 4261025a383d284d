/** What a tool result holds, as far as summarizing it is concerned. */
import type { CallToolResult } from '../util/mcp-types.js';

/** Images, audio and blob resources are passed through untouched. */
export function hasBinary(result: CallToolResult): boolean {
  return (result.content ?? []).some(
    (item) => item.type === 'image' || item.type === 'audio' || (item.type === 'resource' && 'blob' in item.resource),
  );
}

/**
 * The result's text as the agent would read it: its text blocks and embedded text resources, or
 * its structured content as JSON when it has no text at all.
 */
export function rawTextOf(result: CallToolResult): string {
  const parts: string[] = [];
  for (const item of result.content ?? []) {
    if (item.type === 'text') parts.push(item.text);
    else if (item.type === 'resource' && 'text' in item.resource) parts.push(item.resource.text);
    else if (item.type === 'resource_link') parts.push(`${item.name}: ${item.uri}`);
  }
  if (parts.length === 0 && result.structuredContent) return JSON.stringify(result.structuredContent, null, 2);
  return parts.join('\n');
}

export const byteLength = (text: string): number => Buffer.byteLength(text, 'utf8');
