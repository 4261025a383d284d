import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { valueHash } from '../../shared/hash.js';

/** One version of a tool as its server offers it (description, input schema, annotations): what a pin holds and the catalog compares. */
export function toolHash(tool: Tool): string {
  return valueHash({
    description: tool.description ?? '',
    inputSchema: tool.inputSchema,
    annotations: tool.annotations ?? null,
  });
}
