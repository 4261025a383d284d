import type { Tool, ToolAnnotations } from './mcp-types.js';
import { z } from 'zod';

// A tool's arguments as zod declares them: the schema an MCP client is shown, and a refusal in words.

/**
 * A gateway tool, declared once: what tools/list shows (its inputSchema generated from `args`),
 * the arguments its handler parses, and an example of a call its handler accepts (the tests call
 * every declared tool with it).
 */
export interface ToolDeclaration<N extends string = string, A extends z.ZodObject = z.ZodObject> {
  tool: Tool & { name: N };
  args: A;
  example: z.input<A>;
}

export function declareTool<const N extends string, A extends z.ZodObject>(
  name: N,
  declared: { title: string; description: string; args: A; annotations: ToolAnnotations; example: z.input<A> },
): ToolDeclaration<N, A> {
  const { title, description, args, annotations, example } = declared;
  return { tool: { name, title, description, inputSchema: toolInputSchema(args), annotations }, args, example };
}

/**
 * The advertised inputSchema of a gateway tool, generated from the zod object its handler parses
 * with, so the two cannot drift. Input mode: defaulted fields are optional, as a caller sees them.
 * `$schema` is left out (draft 2020-12 is MCP's default dialect), and so are the safe-integer
 * bounds zod adds to every `.int()`: they say nothing to the agent and only cost tokens.
 */
export function toolInputSchema(args: z.ZodObject): Tool['inputSchema'] {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(args, { io: 'input' }) as Record<string, unknown>;
  return withoutSafeIntegerBounds(schema) as Tool['inputSchema'];
}

function withoutSafeIntegerBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutSafeIntegerBounds);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (
      (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) ||
      (key === 'minimum' && value === Number.MIN_SAFE_INTEGER)
    )
      continue;
    out[key] = withoutSafeIntegerBounds(value);
  }
  return out;
}

/** A zod failure as one sentence naming the argument and what it needs. */
export function describeArgsError(tool: string, error: z.ZodError): string {
  const parts = error.issues.map((issue) => {
    const field = issue.path.join('.') || 'arguments';
    return `${field}: ${issue.message}`;
  });
  return `Invalid arguments for ${tool}: ${parts.join('; ')}.`;
}
