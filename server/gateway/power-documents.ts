import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { callWith, type EffectiveAnnotations } from '../calls/annotations.js';
import type { PowerDefinition } from '../powers/types.js';
import { deriveFromTools } from '../powers/derive.js';
import type { PowerDocument } from '../resolve/types.js';

/** What the agent and the resolver see of a power: imported powers take their words from their tools. */
export function describePower(power: PowerDefinition, tools: Tool[]): { description: string; keywords: string[] } {
  if (!power.derivedFromTools || tools.length === 0) return { description: power.description, keywords: power.keywords };
  return deriveFromTools(power, tools);
}

/** A power's search document; `annotationsOf` says which of its tools are destructive, as their calls are checked. */
export function powerDocument(power: PowerDefinition, tools: Tool[], annotationsOf?: (tool: Tool) => EffectiveAnnotations): PowerDocument {
  const { description, keywords } = describePower(power, tools);
  return {
    name: power.name,
    description,
    keywords,
    tools: tools.map((tool) => {
      const destructive = annotationsOf ? isDestructive(annotationsOf(tool)) : false;
      return { name: tool.name, description: tool.description, ...(destructive ? { destructive } : {}) };
    }),
  };
}

/** The tool's call goes through call_tool_destructive: the ranking keeps it from requests that change nothing. */
export function isDestructive(annotations: EffectiveAnnotations): boolean {
  return callWith(annotations) === 'call_tool_destructive';
}
