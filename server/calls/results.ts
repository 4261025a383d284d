import type { CallToolResult } from '../util/mcp-types.js';
import { maskDeep, maskSecrets } from '../util/secrets.js';

/** A tool result the agent reads: compact JSON text for any client (indentation costs tokens), the same object as structured content. */
export function jsonResult(payload: Record<string, unknown>, isError = false): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(payload) }],
    structuredContent: payload,
    ...(isError ? { isError: true } : {}),
  };
}

/** An error the agent reads; secrets in the message and details are masked. */
export function errorResult(message: string, details: Record<string, unknown> = {}): CallToolResult {
  return jsonResult({ error: maskSecrets(message), ...maskDeep(details) }, true);
}

/**
 * A power's own error result as the agent gets it: the texts masked as the gateway's log is (a successful
 * result is the tool's data, as it is).
 */
export function maskedErrorResult(result: CallToolResult): CallToolResult {
  if (!result.isError) return result;
  return {
    ...result,
    content: result.content.map((item) => (item.type === 'text' ? { ...item, text: maskSecrets(item.text) } : item)),
    ...(result.structuredContent ? { structuredContent: maskDeep(result.structuredContent) } : {}),
  };
}
