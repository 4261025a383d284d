/**
 * The answers of resolve_intent and activate_power, built from what was decided (tier, candidates,
 * the tool ranking, what an activation exposed) without side effects, so `grimoire bench` measures
 * the very answer the agent reads. Every answer is actionable: each power shown comes with its
 * best tools for the request as lines the agent can call at once through call_tool_*, and an
 * activation does not repeat the tool list that tools/list sends.
 */
import type { Tool } from '../util/mcp-types.js';
import type { PowerScore } from '../resolve/types.js';
import type { Tier } from '../../protocol/records.js';
import { bestTools, callLine, firstSentence, variantFor, type ToolCatalogView } from './tool-lines.js';

export interface ResolveAnswerView extends ToolCatalogView {
  /** The power's description as the agent sees it. */
  describe(power: string): string;
  /** Every configured power, for a not_found answer. */
  powerNames(): string[];
}

export interface ShownCandidate extends Pick<PowerScore, 'name' | 'confidence'> {
  flags?: string[];
}

/** What an activation did, as the answer tells it. */
export interface ActivationFacts {
  power: string;
  /** The power's tools now in the session's tool list: their server names and the names they are listed as. */
  exposed: { tool: string; listedAs: string }[];
  /** The power's guidance, when this session has not been given it yet. */
  guidance?: string;
  /** Tools awaiting the user's review. */
  held: string[];
}

const MATCH_DESCRIPTION_CHARS = 160;

/** Past this many powers, a not_found answer lists them by name only: every power, still, but not thousands of tokens. */
export const DESCRIBED_POWERS_MAX = 20;

/** Every configured power, described in one sentence each when there are few. */
function catalogList(view: ResolveAnswerView): { name: string; description?: string }[] {
  const names = view.powerNames();
  if (names.length > DESCRIBED_POWERS_MAX) return names.map((name) => ({ name }));
  return names.map((name) => ({ name, description: firstSentence(view.describe(name), MATCH_DESCRIPTION_CHARS) }));
}

/** The powers shown by a multiple_matches or weak_matches answer, each with its best tools for the request. */
export function matchEntries<C extends ShownCandidate>(
  view: ResolveAnswerView,
  candidates: C[],
  toolRanking: PowerScore[],
  decorate?: (candidate: C) => Record<string, unknown>,
): Record<string, unknown>[] {
  return candidates.map((candidate) => {
    const tools = bestTools(view, candidate.name, toolRanking);
    return {
      name: candidate.name,
      confidence: candidate.confidence,
      description: firstSentence(view.describe(candidate.name), MATCH_DESCRIPTION_CHARS),
      ...(tools.length ? { tools: tools.map((tool) => callLine(view, candidate.name, tool)) } : {}),
      ...(candidate.flags?.length ? { flags: candidate.flags } : {}),
      ...(decorate ? decorate(candidate) : {}),
    };
  });
}

/** The message of an answer that names tools: how to call the first one at once. */
export function callNowMessage(
  view: ResolveAnswerView,
  first: { power: string; tool: Tool } | undefined,
  tier: Exclude<Tier, 'activated'>,
): string {
  const example = first
    ? (() => {
        const variant = variantFor(view, first.power, first.tool);
        return (
          `${variant}({ name: '${first.power}:${first.tool.name}', args: {...}, intent: { operation_type: ` +
          `'${variant.slice('call_tool_'.length)}' } })`
        );
      })()
    : undefined;
  const call = example
    ? `Call the tool that fits at once with the variant its line names, e.g. ${example}; its power starts on that call. `
    : '';
  const otherwise: Record<typeof tier, string> = {
    multiple_matches:
      'To see all tools of a power, call activate_power with its name; if none fits, ask the user which they mean.',
    weak_matches:
      'If a power fits but not its tools shown, call activate_power with its name; ' +
      'otherwise call resolve_intent again naming the service, the kind of data or the action.',
    not_found:
      'No power matches well: if a listed one fits, call activate_power with its name; ' +
      'otherwise tell the user no configured MCP server provides this (they can add one as a spell file).',
  };
  return `${call}${otherwise[tier]}`;
}

/** The first tool named in a list of match entries, for the message's example. */
export function firstNamed(
  view: ResolveAnswerView,
  candidates: ShownCandidate[],
  toolRanking: PowerScore[],
): { power: string; tool: Tool } | undefined {
  for (const candidate of candidates) {
    const [tool] = bestTools(view, candidate.name, toolRanking, 1);
    if (tool) return { power: candidate.name, tool };
  }
  return undefined;
}

/** A not_found answer's closest tools across every power (those the tool ranking matched), at most three. */
export function closestTools(view: ResolveAnswerView, toolRanking: PowerScore[]): { power: string; tool: Tool }[] {
  const found: { power: string; tool: Tool }[] = [];
  for (const ranked of toolRanking) {
    if (found.length >= 3) break;
    if (ranked.relevance <= 0) continue;
    const target = view.toolOf(ranked.name);
    if (!target || !view.callable(target.power, target.tool)) continue;
    const tool = view.toolsOf(target.power).find((t) => t.name === target.tool);
    if (tool) found.push({ power: target.power, tool });
  }
  return found;
}

/**
 * What an activation tells the agent: the guidance once per session, the best tools for the
 * request by the names they have in the tool list (tools/list carries their schemas, so no tool
 * is described again), lines for the tools that could not be listed (exposure mode 'call-tools' or
 * the cap) and what to do next.
 */
export function activationAnswer(
  view: ResolveAnswerView,
  facts: ActivationFacts,
  best: Tool[] | undefined,
): Record<string, unknown> {
  const { power } = facts;
  const listedAs = new Map(facts.exposed.map((e) => [e.tool, e.listedAs]));
  const exposed = new Set(listedAs.keys());
  const hidden = view.toolsOf(power).filter((tool) => !exposed.has(tool.name) && view.callable(power, tool.name));
  // With a request, only its best hidden tools are named; an activation by name names them all.
  const hiddenShown = best ? best.filter((tool) => !exposed.has(tool.name)) : hidden;
  const bestExposed = (best ?? []).filter((tool) => exposed.has(tool.name)).map((tool) => listedAs.get(tool.name)!);
  const unnamed = hidden.length - hiddenShown.length;
  const parts: string[] = [];
  if (exposed.size > 0) {
    parts.push(
      `Its ${exposed.size} tools are in your tool list as '${power}__<tool>'` +
        `${bestExposed.length ? `; for this request start with ${bestExposed[0]}` : ''}` +
        ` (until your list refreshes, call them as '${power}:<tool>' through call_tool_*).`,
    );
  }
  if (hiddenShown.length)
    parts.push(`Call the tools in call_with_tools with the variant each line names; the power starts on that call.`);
  if (unnamed > 0)
    parts.push(`${unnamed} more of its tools are not in your list: retrieve_tools finds them by what they do.`);
  if (facts.guidance) parts.push('Follow its guidance.');
  parts.push(`deactivate_power('${power}') when done.`);
  const review = facts.held.length
    ? ` ${facts.held.length} of its tools changed since the user approved them and await their review, ` +
      `so they cannot be called: ${facts.held.map((t) => `${power}:${t}`).join(', ')}.`
    : '';
  return {
    ...(facts.guidance ? { guidance: facts.guidance } : {}),
    ...(bestExposed.length ? { best_tools: bestExposed } : {}),
    ...(hiddenShown.length ? { call_with_tools: hiddenShown.map((tool) => callLine(view, power, tool)) } : {}),
    ...(facts.held.length ? { awaiting_review: facts.held.map((t) => `${power}:${t}`) } : {}),
    message: parts.join(' ') + review,
  };
}

/** The whole answer of activate_power. */
export function activatePowerAnswer(view: ResolveAnswerView, facts: ActivationFacts): Record<string, unknown> {
  return { status: 'activated', power: { name: facts.power }, ...activationAnswer(view, facts, undefined) };
}

/** The line saying the answer was ranked before every power's tools were listed, when it was. */
function partialLine(note: string | undefined): Record<string, unknown> {
  return note ? { partial: note } : {};
}

/** The whole answer of resolve_intent when it activated `best`. */
export function activatedAnswer(
  view: ResolveAnswerView,
  best: ShownCandidate,
  facts: ActivationFacts,
  toolRanking: PowerScore[],
  extra: { internals?: Record<string, unknown>; power?: Record<string, unknown>; partial?: string } = {},
): Record<string, unknown> {
  return {
    status: 'activated',
    power: { name: best.name, confidence: best.confidence, ...extra.power },
    ...partialLine(extra.partial),
    ...extra.internals,
    ...activationAnswer(view, facts, bestTools(view, best.name, toolRanking)),
  };
}

/** The whole answer of resolve_intent for a tier that does not activate. */
export function matchesAnswer<C extends ShownCandidate>(
  view: ResolveAnswerView,
  tier: Exclude<Tier, 'activated'>,
  candidates: C[],
  toolRanking: PowerScore[],
  extra: {
    internals?: Record<string, unknown>;
    decorate?: (candidate: C) => Record<string, unknown>;
    partial?: string;
  } = {},
): Record<string, unknown> {
  if (tier === 'not_found') {
    const closest = closestTools(view, toolRanking);
    return {
      status: 'not_found',
      powers: catalogList(view),
      ...(closest.length ? { closest_tools: closest.map(({ power, tool }) => callLine(view, power, tool)) } : {}),
      ...partialLine(extra.partial),
      ...extra.internals,
      message: callNowMessage(view, closest[0], tier),
    };
  }
  return {
    status: tier,
    matches: matchEntries(view, candidates, toolRanking, extra.decorate),
    ...partialLine(extra.partial),
    ...extra.internals,
    message: callNowMessage(view, firstNamed(view, candidates, toolRanking), tier),
  };
}
