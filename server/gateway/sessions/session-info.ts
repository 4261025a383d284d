/** What every MCP session of the gateway announces in its `initialize` answer (declared once: the early answers use it too). */
import type { Implementation, ServerCapabilities } from '@modelcontextprotocol/server';
import { VERSION } from '../../version.js';

export const GATEWAY_INSTRUCTIONS =
  'Grimoire is a gateway to many MCP servers ("powers"); you see only a few tools at first. ' +
  'For a capability you do not have, call resolve_intent with what you want to do: its answer names the best tools for it ' +
  "as '<power>:<tool>' with their required args and the variant to call them with (call_tool_read, call_tool_write or " +
  'call_tool_destructive): call one at once, its power starts on that call. When it is sure, it activates the power and its ' +
  "tools join your list as '<power>__<tool>'. Call retrieve_tools instead when you need tools' full " +
  'input schemas, or tools of several powers for one task.';

export const SERVER_INFO: Implementation = { name: 'grimoire', version: VERSION, title: 'Grimoire MCP gateway' };

/** Prompts, resources and completions of the active powers are passed through; logging carries the gateway's warnings. */
export const PASSTHROUGH_CAPABILITIES: ServerCapabilities = {
  prompts: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  completions: {},
  logging: {},
};

export const SESSION_CAPABILITIES: ServerCapabilities = { tools: { listChanged: true }, ...PASSTHROUGH_CAPABILITIES };
