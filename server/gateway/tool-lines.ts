import type { Tool } from '../util/mcp-types.js';
import { callWith, looksReadOnly, type EffectiveAnnotations } from '../calls/annotations.js';
import type { PowerScore } from '../resolve/types.js';

/** How many of a power's tools an answer names for the request. */
export const BEST_TOOLS = 3;

/** What an answer needs to know of the catalog to name tools the agent can call. */
export interface ToolCatalogView {
  toolsOf(power: string): Tool[];
  annotationsOf(power: string, tool: Tool): EffectiveAnnotations;
  /** The tool may be offered: not refused by settings, not held for the user's review. */
  callable(power: string, tool: string): boolean;
  /** The power and tool a name of the tool ranking stands for. */
  toolOf(ranked: string): { power: string; tool: string } | undefined;
}

/** A power's tools that the tool ranking matched for this request, best first, at most `limit`. */
export function bestTools(view: ToolCatalogView, power: string, toolRanking: PowerScore[], limit = BEST_TOOLS): Tool[] {
  const tools = view.toolsOf(power);
  const picked: Tool[] = [];
  for (const ranked of toolRanking) {
    if (picked.length >= limit) break;
    const target = view.toolOf(ranked.name);
    if (!target || target.power !== power || !view.callable(power, target.tool)) continue;
    const tool = tools.find((t) => t.name === target.tool);
    if (tool && !picked.includes(tool)) picked.push(tool);
  }
  return picked;
}

/** The call_tool_* variant that fits a tool's annotations. */
export function variantFor(view: ToolCatalogView, power: string, tool: Tool): ReturnType<typeof callWith> {
  const { source, inferred, ...hints } = view.annotationsOf(power, tool);
  return callWith({ ...hints, source, ...(inferred ? { inferred } : {}) });
}

/**
 * One line the agent can act on: `memory:search_nodes via call_tool_read, args {query: string}
 * (+1 optional): Search for nodes...`: the name the intent variants take, the variant its
 * annotations call for, the required arguments with their types, and what it does.
 */
export function callLine(view: ToolCatalogView, power: string, tool: Tool): string {
  const what = firstSentence(tool.description ?? '', 100);
  return (
    `${power}:${tool.name} via ${variantFor(view, power, tool)}${whyWrite(view, power, tool)}, ` +
    `args ${requiredArgs(tool)}${what ? `: ${what}` : ''}`
  );
}

/** Why a tool that looks like a read goes through write: nobody declared it read-only, and the user has not confirmed it. */
function whyWrite(view: ToolCatalogView, power: string, tool: Tool): string {
  return looksReadOnly(view.annotationsOf(power, tool)) ? ' (not confirmed read-only)' : '';
}

/** `{path: string, content: string} (+2 optional)`: the required parameters, and how many others there are. */
export function requiredArgs(tool: Pick<Tool, 'inputSchema'>): string {
  const properties = (tool.inputSchema?.properties ?? {}) as Record<string, { type?: string | string[] }>;
  const required = new Set((tool.inputSchema?.required ?? []).filter((name) => name in properties));
  const typeOf = (schema: { type?: string | string[] } | undefined) =>
    Array.isArray(schema?.type) ? schema.type.join('|') : (schema?.type ?? 'any');
  const listed = [...required].map((name) => `${name}: ${typeOf(properties[name])}`).join(', ');
  const optional = Object.keys(properties).length - required.size;
  return `{${listed}}${optional > 0 ? ` (+${optional} optional)` : ''}`;
}

/** The first sentence or line of a text, at most `max` characters. */
export function firstSentence(text: string, max = 120): string {
  const line = (text.trim().split('\n')[0] ?? '').trim();
  const sentence = line.match(/^.+?[.!?](?=\s|$)/)?.[0] ?? line;
  return sentence.length > max ? `${sentence.slice(0, max - 3)}...` : sentence;
}
