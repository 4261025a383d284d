import { createRuntime, type RuntimeOptions } from '../runtime.js';
import { OPERATION_TYPES, type OperationType } from '../calls/intent.js';
import { HINTS_META } from '../hints/hints-stage.js';
import { UsageError, type CliArgs } from './args.js';

/**
 * `grimoire call tool-read|tool-write|tool-destructive <power:tool> --args '<json>' [--proceed]`:
 * the same validation, hints and activity log as an agent's call_tool_* (session 'cli'); prints
 * the result. Each run is a new session, so a declared prerequisite is never "already run":
 * --proceed is how the CLI runs such a tool.
 */
export async function callCommand(
  sub: string | undefined,
  target: string | undefined,
  args: CliArgs,
  options: RuntimeOptions,
): Promise<number> {
  const variant = sub?.replace(/^tool-/, '') as OperationType;
  if (!sub?.startsWith('tool-') || !OPERATION_TYPES.includes(variant))
    throw new UsageError(`unknown call variant '${sub ?? ''}': use tool-read, tool-write or tool-destructive.`);
  if (!target) throw new UsageError(`call ${sub} needs a tool: grimoire call ${sub} <power:tool> --args '{...}'`);
  let toolArgs: unknown = {};
  if (args.argsJson !== undefined) {
    try {
      toolArgs = JSON.parse(args.argsJson);
    } catch (error) {
      throw new UsageError(
        `--args is not valid JSON (${(error as Error).message}): quote it, e.g. --args '{"path": "README.md"}'.`,
      );
    }
  }
  const runtime = await createRuntime(options);
  try {
    const result = await runtime.gateway.callTool(
      `call_tool_${variant}`,
      {
        name: target,
        args: toolArgs,
        intent: {
          operation_type: variant,
          ...(args.reason ? { reason: args.reason } : {}),
          ...(args.sensitivity ? { data_sensitivity: args.sensitivity } : {}),
        },
        ...(args.proceed ? { proceed: true } : {}),
      },
      { sessionId: 'cli' },
    );
    if (args.json) process.stdout.write(JSON.stringify(result, null, 2) + '\n');
    else
      for (const item of result.content ?? [])
        process.stdout.write((item.type === 'text' ? item.text : JSON.stringify(item)) + '\n');
    const suggested =
      (result._meta?.[HINTS_META] as { status?: string } | undefined)?.status === 'PREREQUISITE_SUGGESTED';
    if (suggested)
      process.stderr.write(
        `grimoire: nothing was run; run the suggested tool first, or add --proceed to run ${target} anyway.\n`,
      );
    return result.isError || suggested ? 1 : 0;
  } finally {
    await runtime.close();
  }
}
