import type { Tool } from '../util/mcp-types.js';
import { callWith, type EffectiveAnnotations } from '../calls/annotations.js';
import type { PowerDefinition } from '../powers/types.js';
import { catalogRarity, deriveFromTools, type WordRarity } from '../powers/derive.js';
import type { PowerDocument } from '../resolve/types.js';

/**
 * What the agent and the resolver see of a power: imported powers take their words from their
 * tools, weighted by `rarity` (what tells them from the rest of the catalog, catalogRarityOf).
 */
export function describePower(
  power: PowerDefinition,
  tools: Tool[],
  rarity?: WordRarity,
): { description: string; keywords: string[] } {
  if (!power.derivedFromTools || tools.length === 0)
    return { description: power.description, keywords: power.keywords };
  return deriveFromTools(power, tools, undefined, rarity);
}

/** The last catalog measured and its rarity: answers and the index ask again and again of an unchanged catalog. */
let measured: { powers: PowerDefinition[]; tools: Tool[][]; rarity: WordRarity } | undefined;

/** How rare each word is across the configured powers' tools and what they say of themselves. */
export function catalogRarityOf(powers: PowerDefinition[], toolsOf: (power: string) => Tool[]): WordRarity {
  const tools = powers.map((power) => toolsOf(power.name));
  const same = (list: Tool[], i: number) =>
    list === measured!.tools[i] || (list.length === 0 && measured!.tools[i].length === 0);
  if (
    measured &&
    measured.powers.length === powers.length &&
    powers.every((power, i) => power === measured!.powers[i]) &&
    tools.every(same)
  )
    return measured.rarity;
  const rarity = catalogRarity(powers.map((power, i) => ({ tools: tools[i], said: power.serverWords })));
  measured = { powers, tools, rarity };
  return rarity;
}

/** A power's search document; `annotationsOf` says which of its tools write or destroy, as their calls are checked. */
export function powerDocument(
  power: PowerDefinition,
  tools: Tool[],
  annotationsOf?: (tool: Tool) => EffectiveAnnotations,
  rarity?: WordRarity,
): PowerDocument {
  const { description, keywords } = describePower(power, tools, rarity);
  return {
    name: power.name,
    description,
    keywords,
    tools: tools.map((tool) => {
      const effect = annotationsOf ? toolEffect(annotationsOf(tool)) : {};
      return { name: tool.name, description: tool.description, ...effect };
    }),
  };
}

/**
 * What a call of the tool may change, as the ranking weighs it against the request: it writes
 * when its annotations (declared, else inferred) say it is not read-only, and is destructive when
 * it goes through call_tool_destructive. A tool whose annotations are unknown is neither.
 */
export function toolEffect(annotations: EffectiveAnnotations): { writes?: true; destructive?: true } {
  const destructive = callWith(annotations) === 'call_tool_destructive';
  const writes = destructive || (annotations.source !== 'none' && annotations.readOnlyHint !== true);
  return { ...(writes ? { writes: true } : {}), ...(destructive ? { destructive: true } : {}) };
}
