import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { PowerDefinition } from '../powers/types.js';
import { exposedToolName } from './tool-names.js';

export interface ExposedTool {
  power: string;
  tool: string;
  definition: Tool;
}

/** The tool as the agent sees it: prefixed name, the power's steering appended, annotations kept. */
export function exposeTool(power: PowerDefinition, tool: Tool): ExposedTool {
  const steering = power.steering.trim();
  const description = steering
    ? `${tool.description ?? ''}\n\n## Guidance from the '${power.name}' power\n${steering}`.trim()
    : (tool.description ?? '');
  return {
    power: power.name,
    tool: tool.name,
    definition: { ...tool, name: exposedToolName(power.name, tool.name), description },
  };
}
