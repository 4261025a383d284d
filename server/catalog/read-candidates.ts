import type { Tool, ToolAnnotations } from '../util/mcp-types.js';
import { effectiveAnnotations, looksReadOnly } from '../calls/annotations.js';
import type { ReadConfirmations } from '../trust/read-confirmations.js';
import { toolHash } from '../trust/pins.js';
import type { PowerRegistry } from '../powers/registry.js';
import { asTool, type CatalogTool } from './catalog.js';

/** A tool Grimoire believes only reads, with no annotation saying so, and where the user's confirmation stands. */
export interface ReadCandidate {
  power: string;
  tool: string;
  description: string;
  /** The version the user would confirm. */
  hash: string;
  /** 'new': never confirmed; 'changed': confirmed, but the tool changed since; 'confirmed': read-only by the user's word. */
  status: 'new' | 'changed' | 'confirmed';
}

export interface PowerToolsView {
  power: string;
  tools: Tool[];
  /** The spell's annotation override of a tool, if any (a spell that says so needs no confirmation). */
  override?: (tool: string) => ToolAnnotations | undefined;
}

/**
 * The tools the user may confirm as reads: no spell or server annotation says whether they read or
 * write, and their name (or description) says they read. Confirmed ones are listed too, so a review
 * shows what stands; `status` tells them apart.
 */
export function readCandidates(
  powers: PowerToolsView[],
  confirmations: Pick<ReadConfirmations, 'isConfirmed' | 'isStale'>,
): ReadCandidate[] {
  const out: ReadCandidate[] = [];
  for (const { power, tools, override } of powers) {
    for (const tool of tools) {
      const inferred = effectiveAnnotations(tool, override?.(tool.name), true);
      if (!looksReadOnly(inferred) && !confirmations.isConfirmed(power, tool)) continue;
      if (inferred.source !== 'inferred' && inferred.source !== 'none') continue;
      const status = confirmations.isConfirmed(power, tool)
        ? 'confirmed'
        : confirmations.isStale(power, tool)
          ? 'changed'
          : 'new';
      out.push({ power, tool: tool.name, description: tool.description ?? '', hash: toolHash(tool), status });
    }
  }
  return out;
}

/** The candidates that await the user's word (new, or changed since confirmed). */
export function unconfirmed(candidates: readonly ReadCandidate[]): ReadCandidate[] {
  return candidates.filter((candidate) => candidate.status !== 'confirmed');
}

/**
 * Why the tool cannot be confirmed read-only, or undefined when it can: its server or spell already
 * says whether it reads or writes (a spell override is the way to overrule a server).
 */
export function confirmRefusal(
  power: string,
  tool: Tool | undefined,
  override: ToolAnnotations | undefined,
  name: string,
): string | undefined {
  if (!tool)
    return `'${power}:${name}' is not a listed tool (its power's tools are listed once it has started, or by the gateway's discovery).`;
  const annotations = effectiveAnnotations(tool, override, false);
  if (annotations.source === 'spell' || annotations.source === 'server') {
    const by = annotations.source === 'spell' ? 'its spell file' : 'its server';
    if (annotations.readOnlyHint === true) return `'${power}:${name}' is declared read-only by ${by} already.`;
    return (
      `'${power}:${name}' is declared ${annotations.destructiveHint ? 'destructive' : 'to write'} by ` +
      `${by}: it cannot be confirmed read-only (a spell override can change what ${by} says).`
    );
  }
  return undefined;
}

/** The listed tools, as the gateway (PowerTools) or a command on the store (the catalog and the spells) knows them. */
export interface ListedTools {
  powers(): Array<{ name: string }>;
  toolsOf(power: string): Tool[];
  overrideOf(power: string, tool: string): ToolAnnotations | undefined;
}

/**
 * The configured powers' tools as the catalog last listed them (`Catalog.all()`), and the spells' overrides:
 * what a command on the store knows.
 */
export function catalogListedTools(
  registry: Pick<PowerRegistry, 'snapshot' | 'extensions'>,
  catalogued: ReadonlyMap<string, CatalogTool[]>,
): ListedTools {
  const tools = new Map<string, Tool[]>();
  for (const power of registry.snapshot().powers) tools.set(power.name, (catalogued.get(power.name) ?? []).map(asTool));
  return {
    powers: () => registry.snapshot().powers,
    toolsOf: (power) => tools.get(power) ?? [],
    overrideOf: (power, tool) => registry.extensions(power)?.annotations?.[tool],
  };
}

/** One power's tools as the read candidates are chosen from them. */
export function toolsViewOf(listed: ListedTools, power: string): PowerToolsView {
  return { power, tools: listed.toolsOf(power), override: (tool) => listed.overrideOf(power, tool) };
}

/** What to confirm: one tool, every candidate of a power, or every candidate awaiting the user's word. */
export type ReadTarget = { power: string; tool: string } | { power: string } | 'all';

export interface ConfirmOutcome {
  confirmed: ReadCandidate[];
  refused: string[];
}

/** Confirms the targets' current versions as read-only (the user's decision: never reached through MCP). */
export function confirmReads(
  targets: readonly ReadTarget[],
  listed: ListedTools,
  reads: Pick<ReadConfirmations, 'isConfirmed' | 'isStale' | 'confirm'>,
): ConfirmOutcome {
  const chosen = new Map<string, ReadCandidate>();
  const refused: string[] = [];
  for (const target of targets) {
    if (target === 'all' || !('tool' in target)) {
      const powers = target === 'all' ? listed.powers().map((p) => p.name) : [target.power];
      for (const candidate of unconfirmed(
        readCandidates(
          powers.map((power) => toolsViewOf(listed, power)),
          reads,
        ),
      ))
        chosen.set(`${candidate.power}:${candidate.tool}`, candidate);
      continue;
    }
    const tool = listed.toolsOf(target.power).find((t) => t.name === target.tool);
    const refusal = confirmRefusal(target.power, tool, listed.overrideOf(target.power, target.tool), target.tool);
    if (refusal || !tool) {
      refused.push(refusal!);
      continue;
    }
    const status = reads.isConfirmed(target.power, tool)
      ? 'confirmed'
      : reads.isStale(target.power, tool)
        ? 'changed'
        : 'new';
    chosen.set(`${target.power}:${target.tool}`, {
      power: target.power,
      tool: tool.name,
      description: tool.description ?? '',
      hash: toolHash(tool),
      status,
    });
  }
  const byPower = new Map<string, ReadCandidate[]>();
  for (const candidate of chosen.values())
    byPower.set(candidate.power, [...(byPower.get(candidate.power) ?? []), candidate]);
  for (const [power, list] of byPower)
    reads.confirm(
      power,
      list.map((c) => ({ name: c.tool, hash: c.hash })),
    );
  return { confirmed: [...chosen.values()].map((c) => ({ ...c, status: 'confirmed' as const })), refused };
}
