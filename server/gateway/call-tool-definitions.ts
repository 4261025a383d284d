import type { Tool } from '../util/mcp-types.js';
import { z } from 'zod';
import { intentCallArgs, variantTool, type OperationType } from '../calls/intent.js';
import { toolInputSchema } from '../util/tool-args.js';

const WHAT: Record<OperationType, string> = {
  read: 'Call a tool that only reads.',
  write: 'Call a tool that creates or changes, destroying nothing.',
  destructive: 'Call a tool that deletes or overwrites (the user is asked first).',
};

/** call_tool_read / call_tool_write / call_tool_destructive, with annotations that match their names. */
export function intentCallTool(variant: OperationType): Tool {
  return {
    name: variantTool(variant),
    title: `Call a tool (${variant})`,
    description:
      `${WHAT[variant]} name: '<power>:<tool>' as resolve_intent or retrieve_tools name it; args: ` +
      `its arguments; the power starts if needed. intent.operation_type must be '${variant}' and fit the ` +
      `tool's annotations.`,
    inputSchema: toolInputSchema(intentCallArgs),
    annotations: {
      readOnlyHint: variant === 'read',
      destructiveHint: variant === 'destructive',
      idempotentHint: false,
      openWorldHint: true,
    },
  };
}

export const retrieveToolsArgs = z.object({
  query: z
    .string()
    .min(1, 'query must not be empty: describe the task, e.g. "search my notes"')
    .describe('What you want to do.'),
  limit: z.number().int().min(1).max(50).default(10).describe('How many tools (default 10).'),
  detail: z
    .enum(['full', 'compact'])
    .default('full')
    .describe("'compact' gives parameter names and types instead of whole schemas."),
  explain: z
    .boolean()
    .optional()
    .describe('Also return why each tool matched (matched terms and factor contributions).'),
});

export const RETRIEVE_TOOLS: Tool = {
  name: 'retrieve_tools',
  title: 'Find tools across all powers',
  description:
    'Find the tools that fit a task across every power (running or not), best first, with their full input schemas, annotations and ' +
    'the call variant to use (call_with). Use it when you need a full schema, ' +
    'or tools of several powers for one task; resolve_intent is the shorter path to one tool.',
  inputSchema: toolInputSchema(retrieveToolsArgs),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};
