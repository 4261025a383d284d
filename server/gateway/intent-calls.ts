import type { CallToolResult } from '../util/mcp-types.js';
import { intentCallArgs, variantTool, type OperationType } from '../calls/intent.js';
import { errorResult } from '../calls/results.js';
import { normalizeCallKeys } from '../calls/call-arg-keys.js';
import { UpstreamError } from '../upstream/errors.js';
import { errorMessage } from '../log.js';
import type { CallerContext, CallTool, EnsureTools, PolicyPort, PowerLookup, ToolLookup } from './ports.js';
import { describeArgsError } from '../util/tool-args.js';
import { splitQualifiedName } from './tool-names.js';
import { awaitingReview, settingsRefusalText } from '../trust/tool-policy.js';
import { preview } from '../../shared/preview.js';

/** The ports the handler uses (ports.ts). */
export type IntentCallPorts = PowerLookup & EnsureTools & Pick<ToolLookup, 'annotationsOf'> & CallTool & PolicyPort;

/**
 * call_tool_read / call_tool_write / call_tool_destructive: find the tool (starting its power if
 * it is not running), then run the call through the pipeline, whose first stage checks the
 * declared intent against the tool's annotations.
 */
export async function handleIntentCall(
  ports: IntentCallPorts,
  variant: OperationType,
  rawArgs: Record<string, unknown>,
  caller: CallerContext,
): Promise<CallToolResult> {
  const calledAs = variantTool(variant);
  const keys = normalizeCallKeys(rawArgs);
  if (!keys.ok) return errorResult(`Invalid arguments for ${calledAs}: ${keys.error}`);
  const parsed = intentCallArgs.safeParse(keys.value);
  if (!parsed.success) return errorResult(describeArgsError(calledAs, parsed.error));
  const { name, args, intent, proceed } = parsed.data;
  const target = splitQualifiedName(name);
  if (!target)
    return errorResult(
      `'${preview(name)}' does not name a tool: write '<power>:<tool>', e.g. 'filesystem:read_text_file'. ` +
        `retrieve_tools finds tools by what they do.`,
    );
  const power = ports.power(target.power);
  // A disabled power is answered as no power at all: no answer names it.
  if (!power || ports.policy.powerRefusal(target.power)) {
    const known = ports
      .powers()
      .map((p) => p.name)
      .filter((name) => !ports.policy.powerRefusal(name));
    return errorResult(`Unknown power '${preview(target.power)}'. Known powers: ${known.join(', ') || '(none)'}.`, {
      known_powers: known,
    });
  }
  const refused = ports.policy.settingsRefusal(power.name, target.tool);
  if (refused) return errorResult(settingsRefusalText(refused, power.name, preview(target.tool)));
  let tools;
  try {
    tools = await ports.ensureTools(power.name, caller);
  } catch (error) {
    return errorResult(
      error instanceof UpstreamError
        ? error.message
        : `Could not list the tools of '${power.name}': ${errorMessage(error)}`,
    );
  }
  const tool = tools.find((t) => t.name === target.tool);
  if (!tool) {
    return errorResult(
      `Power '${power.name}' has no tool '${preview(target.tool)}'. Its tools: ${tools.map((t) => t.name).join(', ')}.`,
      { tools: tools.map((t) => t.name) },
    );
  }
  if (ports.policy.isHeld(power.name, tool.name))
    return errorResult(awaitingReview(`${power.name}:${tool.name}`), {
      code: 'awaiting_review',
      tool: `${power.name}:${tool.name}`,
    });
  return ports.runCall(
    {
      power: power.name,
      tool: tool.name,
      calledAs,
      args,
      variant,
      intent,
      proceed,
      annotations: ports.annotationsOf(power.name, tool),
    },
    caller,
  );
}
