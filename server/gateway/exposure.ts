import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { EffectiveAnnotations } from '../calls/annotations.js';
import type { PowerDefinition } from '../powers/types.js';
import { exposedToolName } from './tool-names.js';

export interface ExposedTool {
  power: string;
  tool: string;
  definition: Tool;
}

export const INFERRED_META = 'grimoire/annotationsInferred';

/**
 * The tool as the agent sees it: prefixed name, the power's steering appended, the annotations
 * validation uses (a spell's override, the server's, or inferred, which is said in the
 * description and in `_meta`; an inferred read-only hint is not announced).
 */
export function exposeTool(power: PowerDefinition, tool: Tool, annotations: EffectiveAnnotations): ExposedTool {
  const steering = power.steering.trim();
  const inferredNote = annotations.inferred ? '\n\n(Grimoire inferred this tool\'s annotations from its name: its server gives none.)' : '';
  const description = `${tool.description ?? ''}${inferredNote}${steering ? `\n\n## Guidance from the '${power.name}' power\n${steering}` : ''}`.trim();
  const { source: _source, inferred, ...hints } = annotations;
  // An inferred read is advice, never permission: the editor must not auto-approve on a guess.
  if (inferred && hints.readOnlyHint === true) delete hints.readOnlyHint;
  return {
    power: power.name,
    tool: tool.name,
    definition: {
      ...tool,
      name: exposedToolName(power.name, tool.name),
      description,
      ...(Object.keys(hints).length ? { annotations: { ...tool.annotations, ...hints } } : {}),
      ...(inferred ? { _meta: { ...tool._meta, [INFERRED_META]: true } } : {}),
    },
  };
}
