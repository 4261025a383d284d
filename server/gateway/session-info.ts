/** What every MCP session of the gateway announces in its `initialize` answer (declared once: the early answers use it too). */
import type { Implementation, ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { VERSION } from '../version.js';

export const GATEWAY_INSTRUCTIONS =
  'Grimoire is a gateway to many MCP servers ("powers"). You see only a few tools at first. ' +
  'When you need a capability you do not have, call resolve_intent with what you want to do; the matching ' +
  "power is activated, its tools appear in your list as '<power>__<tool>' and the answer gives the power's guidance.";

export const SERVER_INFO: Implementation = { name: 'grimoire', version: VERSION, title: 'Grimoire MCP gateway' };

/** Prompts, resources and completions of the active powers are passed through; logging carries the gateway's warnings. */
export const PASSTHROUGH_CAPABILITIES: ServerCapabilities = {
  prompts: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  completions: {},
  logging: {},
};

export const SESSION_CAPABILITIES: ServerCapabilities = { tools: { listChanged: true }, ...PASSTHROUGH_CAPABILITIES };
