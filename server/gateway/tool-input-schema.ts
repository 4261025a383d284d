import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/**
 * The advertised inputSchema of a gateway tool, generated from the zod object its handler parses
 * with, so the two cannot drift. Input mode: defaulted fields are optional, as a caller sees them.
 * `$schema` is left out (draft 2020-12 is MCP's default dialect, and it only costs tokens).
 */
export function toolInputSchema(args: z.ZodObject): Tool['inputSchema'] {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(args, { io: 'input' }) as Record<string, unknown>;
  return schema as Tool['inputSchema'];
}
