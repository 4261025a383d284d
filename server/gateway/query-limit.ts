import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorResult } from '../calls/results.js';
import { preview } from '../util/preview.js';

/** resolve_intent and retrieve_tools refuse a query over the limit (settings: limits.queryChars), quoting only its start. */
export function queryTooLong(tool: string, query: string, limit: number): CallToolResult | undefined {
  if (query.length <= limit) return undefined;
  return errorResult(
    `The query for ${tool} has ${query.length.toLocaleString('en-US')} characters; the limit is ${limit.toLocaleString('en-US')} (setting limits.queryChars). ` +
      `Say in a sentence or two what you want to do. The query began: '${preview(query, 80)}'`,
    { code: 'query_too_long' },
  );
}
