import { z } from 'zod';

export const OPERATION_TYPES = ['read', 'write', 'destructive'] as const;
export type OperationType = (typeof OPERATION_TYPES)[number];
export const SENSITIVITY = ['public', 'internal', 'private', 'unknown'] as const;

/**
 * What the agent declares about a call: the kind of operation, how sensitive the data is, and why.
 * Required, as validateIntent rejects a call without operation_type whatever the settings.
 */
export const intentSchema = z.object(
  {
    operation_type: z.enum(OPERATION_TYPES, {
      error: (issue) =>
        issue.input === undefined
          ? "required: declare the call's variant, 'read', 'write' or 'destructive'"
          : "must be 'read', 'write' or 'destructive'",
    }),
    data_sensitivity: z
      .enum(SENSITIVITY, { message: "must be 'public', 'internal', 'private' or 'unknown'" })
      .optional(),
    reason: z.string().max(1000, 'must be at most 1000 characters').optional(),
  },
  {
    error: (issue) =>
      issue.input === undefined ? "required: declare { operation_type: '<the call's variant>' }" : 'must be an object',
  },
);
export type Intent = z.infer<typeof intentSchema>;

/** The arguments of call_tool_read / call_tool_write / call_tool_destructive. */
export const intentCallArgs = z.object({
  name: z.string().min(1, "name the tool as '<power>:<tool>' (or '<power>__<tool>')"),
  args: z.record(z.string(), z.unknown()).default({}),
  intent: intentSchema,
  proceed: z.boolean().optional().describe('Run it although a prerequisite was suggested.'),
});

/** The call variant a gateway tool name stands for, or undefined for any other name. */
export function variantOf(toolName: string): OperationType | undefined {
  const match = /^call_tool_(read|write|destructive)$/.exec(toolName);
  return match ? (match[1] as OperationType) : undefined;
}

export const variantTool = <V extends OperationType>(variant: V) => `call_tool_${variant}` as const;
