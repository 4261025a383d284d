/**
 * The resolve_intent answer a bench query would get, built by the gateway's own answer builder
 * (server/gateway/resolve-answer.ts) over a bench catalog, and whether it lets the agent call a
 * right tool at once.
 */
import type { Tool } from '../util/mcp-types.js';
import { effectiveAnnotations } from '../calls/annotations.js';
import { jsonResult } from '../calls/results.js';
import {
  activatedAnswer,
  matchesAnswer,
  type ResolveAnswerView,
  type ShownCandidate,
} from '../gateway/resolve-answer.js';
import { loadEncoder } from '../intel/tokens/tokenizer-core.js';
import type { PowerScore } from '../resolve/types.js';
import type { Tier } from '../../protocol/records.js';
import type { BenchServer, BenchTool } from './dataset.js';

export interface BenchCatalog {
  view: ResolveAnswerView;
  /** The tool_id of a power's tool. */
  toolId(power: string, tool: string): string | undefined;
}

/** A bench data set's servers and tools as the gateway's answers read a catalog (annotations inferred where missing, as by default). */
export function benchCatalog(servers: BenchServer[], tools: BenchTool[]): BenchCatalog {
  const byPower = new Map<string, Tool[]>(servers.map((s) => [s.server, []]));
  const ids = new Map<string, { power: string; tool: string }>();
  const idOf = new Map<string, string>();
  for (const row of tools) {
    const tool = {
      name: row.name,
      description: row.description,
      inputSchema: { type: 'object', ...(row.inputSchema ?? {}) },
      ...(row.annotations ? { annotations: row.annotations } : {}),
    } as Tool;
    byPower.get(row.server)?.push(tool);
    ids.set(row.tool_id, { power: row.server, tool: row.name });
    idOf.set(`${row.server}\u0000${row.name}`, row.tool_id);
  }
  const descriptions = new Map(servers.map((s) => [s.server, s.description]));
  const view: ResolveAnswerView = {
    describe: (power) => descriptions.get(power) ?? '',
    powerNames: () => servers.map((s) => s.server),
    toolsOf: (power) => byPower.get(power) ?? [],
    annotationsOf: (_power, tool) => effectiveAnnotations(tool, undefined, true),
    callable: () => true,
    toolOf: (ranked) => ids.get(ranked),
  };
  return { view, toolId: (power, tool) => idOf.get(`${power}\u0000${tool}`) };
}

export interface BenchAnswer {
  answer: Record<string, unknown>;
  /** The answer's text as the agent reads it, in o200k_base tokens. */
  tokens: number;
  /** A right tool can be called at once: the activated power has one, or the answer names one. */
  oneTrip: boolean;
  tier: Tier;
}

let encoder: ReturnType<typeof loadEncoder> | undefined;
export const answerTokens = (text: string) => (encoder ??= loadEncoder()).encode(text).length;

/**
 * The answer of a fresh session (no guidance given, nothing exposed yet): an activation exposes
 * every tool of the power, as exposure mode 'direct' does under its cap.
 */
export function benchAnswer(
  catalog: BenchCatalog,
  decision: { tier: Tier; candidates: ShownCandidate[] },
  toolRanking: PowerScore[],
  relevant: Set<string>,
): BenchAnswer {
  const { view } = catalog;
  let answer: Record<string, unknown>;
  let oneTrip = false;
  if (decision.tier === 'activated') {
    const best = decision.candidates[0];
    const tools = view.toolsOf(best.name);
    answer = activatedAnswer(
      view,
      best,
      {
        power: best.name,
        exposed: tools.map((t) => ({ tool: t.name, listedAs: `${best.name}__${t.name}` })),
        held: [],
      },
      toolRanking,
    );
    oneTrip = tools.some((t) => relevant.has(catalog.toolId(best.name, t.name) ?? ''));
  } else {
    answer = matchesAnswer(view, decision.tier, decision.candidates, toolRanking);
  }
  const text = (jsonResult(answer).content[0] as { text: string }).text;
  if (!oneTrip) oneTrip = namedTools(catalog, text).some((id) => relevant.has(id));
  return { answer, tokens: answerTokens(text), oneTrip, tier: decision.tier };
}

/** The tools an answer's text names as callable lines ('<power>:<tool> via call_tool_...'). */
function namedTools(catalog: BenchCatalog, text: string): string[] {
  const named: string[] = [];
  for (const power of catalog.view.powerNames()) {
    for (const tool of catalog.view.toolsOf(power)) {
      // Each line opens a JSON string: `"<power>:<tool> via `.
      if (text.includes(`${JSON.stringify(`${power}:${tool.name} via `).slice(0, -1)}`))
        named.push(catalog.toolId(power, tool.name) ?? '');
    }
  }
  return named;
}
