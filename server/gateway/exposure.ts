import type { Tool } from '../util/mcp-types.js';
import type { EffectiveAnnotations } from '../calls/annotations.js';
import { declaredHints } from '../hints/declared-hints.js';
import type { SpellExtensions } from '../powers/spell-schema.js';
import type { PowerDefinition } from '../powers/types.js';
import { exposedToolName } from './tool-names.js';

export interface ExposedTool {
  power: string;
  tool: string;
  definition: Tool;
}

export const INFERRED_META = 'grimoire/annotationsInferred';

/**
 * The tool as the agent sees it: prefixed name, its server's own description, and at most one
 * short pointer: the prerequisites the power's spell declares for it, so the agent calls them
 * first instead of meeting PREREQUISITE_SUGGESTED after the user approved the call. The power's
 * steering is not repeated here: it comes once, with the activation (steering.ts). The annotations
 * are those validation uses; inferred ones are marked in `_meta` only,
 * and an inferred read-only hint is not announced (advice, never permission).
 */
export function exposeTool(
  power: PowerDefinition,
  tool: Tool,
  annotations: EffectiveAnnotations,
  extensions?: SpellExtensions,
): ExposedTool {
  const pointer = prerequisitePointer(power.name, tool.name, extensions);
  const description = `${tool.description ?? ''}${pointer ? `\n${pointer}` : ''}`.trim();
  const { source: _source, inferred, ...hints } = annotations;
  // An inferred read is advice, never permission: the editor must not auto-approve on a guess.
  if (inferred && hints.readOnlyHint === true) delete hints.readOnlyHint;
  return {
    power: power.name,
    tool: tool.name,
    definition: {
      ...tool,
      name: exposedToolName(power.name, tool.name),
      ...(description ? { description } : {}),
      ...(Object.keys(hints).length ? { annotations: { ...tool.annotations, ...hints } } : {}),
      ...(inferred ? { _meta: { ...tool._meta, [INFERRED_META]: true } } : {}),
    },
  };
}

/** "First call memory__search_nodes." for a tool whose spell declares prerequisites; undefined otherwise. */
export function prerequisitePointer(
  power: string,
  tool: string,
  extensions: SpellExtensions | undefined,
): string | undefined {
  const prerequisites = declaredHints(extensions, tool).prerequisites;
  if (prerequisites.length === 0) return undefined;
  const names = prerequisites.map((name) => {
    const colon = name.indexOf(':');
    return colon > 0 ? exposedToolName(name.slice(0, colon), name.slice(colon + 1)) : exposedToolName(power, name);
  });
  return `First call ${names.join(' and ')}.`;
}
