import type { Tool } from '../util/mcp-types.js';
import { z } from 'zod';
import { intentCallTool, RETRIEVE_TOOLS } from './call-tool-definitions.js';
import { INTEL_TOOLS } from '../intel/tools/intel-tools.js';
import { declareTool } from '../util/tool-args.js';

/** The gateway's own MCP tools. Their names are a stable contract (docs/features.md lists them). */

export const resolveIntentArgs = z.object({
  query: z
    .string()
    .min(1, 'query must not be empty: describe what you want to do, e.g. "read a file from my project"')
    .describe('What you want to do, e.g. "read a file from my project".'),
  explain: z.boolean().optional().describe("Also return each candidate's factor contributions (why this power)."),
});

const powerName = z.string().min(1, 'name must not be empty: give a power name from resolve_intent');
export const activatePowerArgs = z.object({
  name: powerName.describe('The power name, as returned by resolve_intent.'),
});
export const deactivatePowerArgs = z.object({ name: powerName.describe('The power name.') });

/** Each tool as declared (util/tool-args.ts), in the order tools/list shows them. */
export const GATEWAY_TOOL_DECLARATIONS = [
  declareTool('resolve_intent', {
    title: 'Resolve intent to a power',
    description:
      'Start here for any capability you do not see in your tools: say what you want to do in plain words. ' +
      "The answer names the best tools for it as '<power>:<tool>' with their required args and the call_tool_* variant to use: " +
      'call one at once, its power (MCP server) starts on that call. When sure, it activates the power and its tools join your list.',
    args: resolveIntentArgs,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    example: { query: 'read a file', explain: true },
  }),
  declareTool('activate_power', {
    title: 'Activate a power',
    description:
      "Start a power by name to list all its tools as '<power>__<tool>' (resolve_intent already names the " +
      'best ones, callable without this).',
    args: activatePowerArgs,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    example: { name: 'filesystem' },
  }),
  declareTool('deactivate_power', {
    title: 'Deactivate a power',
    description: 'Stop a power and remove its tools from your tool list when you are done with it.',
    args: deactivatePowerArgs,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    example: { name: 'filesystem' },
  }),
  RETRIEVE_TOOLS,
  intentCallTool('read'),
  intentCallTool('write'),
  intentCallTool('destructive'),
  ...INTEL_TOOLS,
] as const;

export type GatewayToolName = (typeof GATEWAY_TOOL_DECLARATIONS)[number]['tool']['name'];

export const GATEWAY_TOOLS: Tool[] = GATEWAY_TOOL_DECLARATIONS.map((declared) => declared.tool);

const GATEWAY_TOOL_NAMES: ReadonlySet<string> = new Set(GATEWAY_TOOLS.map((tool) => tool.name));

/** One of the names above: any other name is not the gateway's own (no handler looks at it). */
export function isGatewayToolName(name: string): name is GatewayToolName {
  return GATEWAY_TOOL_NAMES.has(name);
}
