import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { PowerDefinition } from '../powers/types.js';
import { deriveFromTools } from '../powers/derive.js';
import type { PowerDocument } from '../resolve/types.js';

/** What the agent and the resolver see of a power: imported powers take their words from their tools. */
export function describePower(power: PowerDefinition, tools: Tool[]): { description: string; keywords: string[] } {
  if (!power.derivedFromTools || tools.length === 0) return { description: power.description, keywords: power.keywords };
  return deriveFromTools(power, tools);
}

export function powerDocument(power: PowerDefinition, tools: Tool[]): PowerDocument {
  const { description, keywords } = describePower(power, tools);
  return {
    name: power.name,
    description,
    keywords,
    tools: tools.map((tool) => ({ name: tool.name, description: tool.description })),
  };
}
