import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * The result itself when it is one the SDK's CallToolResultSchema would return unchanged and that
 * holds nothing but text: an object whose only fields are a `content` list of `{ type: 'text',
 * text }` items (no other field in them) and, if any, a boolean `isError`. Undefined for anything
 * else, which goes through the schema. Most tool answers are of this shape, and the schema costs
 * microseconds a call on the gateway's call path.
 */
export function plainTextResult(value: unknown): CallToolResult | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  let fields = 0;
  for (const key in value) {
    if (key !== 'content' && key !== 'isError') return undefined;
    fields += 1;
  }
  const { content, isError } = value as { content?: unknown; isError?: unknown };
  if (!Array.isArray(content) || (isError !== undefined && typeof isError !== 'boolean') || fields !== (isError === undefined ? 1 : 2)) return undefined;
  for (const item of content) {
    if (typeof item !== 'object' || item === null || (item as { type?: unknown }).type !== 'text' || typeof (item as { text?: unknown }).text !== 'string') return undefined;
    let itemFields = 0;
    for (const _ in item) itemFields += 1;
    if (itemFields !== 2) return undefined;
  }
  return value as CallToolResult;
}
