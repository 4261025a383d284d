import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { OPERATION_TYPES, SENSITIVITY, variantTool, type OperationType } from '../calls/intent.js';

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
    description: `${WHAT[variant]} name: '<power>:<tool>' (retrieve_tools gives call_with); the power starts if needed. intent.operation_type must be '${variant}' and fit the tool's annotations.`,
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        args: { type: 'object', additionalProperties: true },
        intent: {
          type: 'object',
          properties: {
            operation_type: { type: 'string', enum: [...OPERATION_TYPES] },
            data_sensitivity: { type: 'string', enum: [...SENSITIVITY] },
            reason: { type: 'string', maxLength: 1000 },
          },
          required: ['operation_type'],
        },
        proceed: { type: 'boolean', description: 'Run it although a prerequisite was suggested.' },
      },
      required: ['name', 'intent'],
    },
    annotations: {
      readOnlyHint: variant === 'read',
      destructiveHint: variant === 'destructive',
      idempotentHint: false,
      openWorldHint: true,
    },
  };
}

export const RETRIEVE_TOOLS: Tool = {
  name: 'retrieve_tools',
  title: 'Find tools across all powers',
  description:
    'Find the tools that fit a task across every power (running or not), best first, each with its annotations and ' +
    'the call variant to use (call_with). Cheaper than activating powers to look.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'What you want to do.' },
      limit: { type: 'number', minimum: 1, maximum: 50, description: 'How many tools (default 10).' },
      detail: { type: 'string', enum: ['full', 'compact'], description: "'compact' gives parameter names and types instead of whole schemas." },
    },
    required: ['query'],
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};
