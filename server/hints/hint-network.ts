import type { SpellExtensions } from '../powers/spell-schema.js';
import type { HintEdgeInfo, HintNodeInfo } from '../../protocol/records.js';
import { declaredHints, qualify } from './declared-hints.js';
import type { FollowRate } from './hint-events.js';
import type { Transition } from './learned-transitions.js';

export type HintNode = HintNodeInfo;
export type HintEdge = HintEdgeInfo;

export interface HintNetwork {
  nodes: HintNode[];
  edges: HintEdge[];
}

/**
 * The hint network of some powers: their tools, declared prerequisites (edge from the
 * prerequisite to the tool) and next actions, and learned transitions above the support minimum,
 * weighted by use and carrying follow rates.
 */
export function hintNetwork(
  powers: Array<{ name: string; tools: string[]; extensions?: SpellExtensions }>,
  transitions: Map<string, Transition[]>,
  calls: Map<string, number>,
  rates: FollowRate[],
  minSupport: number,
): HintNetwork {
  const nodes = new Map<string, HintNode>();
  const node = (id: string) => {
    if (!nodes.has(id)) {
      const [power, ...rest] = id.split(':');
      nodes.set(id, { id, power, tool: rest.join(':'), calls: calls.get(id) ?? 0 });
    }
  };
  const support = (from: string, to: string) => transitions.get(from)?.find((t) => t.to === to)?.support ?? 0;
  const rateOf = (power: string, tool: string, kind: string, target: string) =>
    rates.find((r) => r.power === power && r.tool === tool && r.kind === kind && r.hint.split(',').includes(target))
      ?.rate ?? null;
  const edges: HintEdge[] = [];
  for (const power of powers) {
    for (const tool of power.tools) node(`${power.name}:${tool}`);
    for (const tool of power.tools) {
      const id = `${power.name}:${tool}`;
      const hints = declaredHints(power.extensions, tool);
      for (const p of hints.prerequisites.map((t) => qualify(power.name, t))) {
        node(p);
        edges.push({
          from: p,
          to: id,
          kind: 'prerequisite',
          source: 'declared',
          weight: support(p, id),
          followRate: rateOf(power.name, tool, 'prerequisite', p),
        });
      }
      for (const n of hints.nextActions.map((t) => qualify(power.name, t))) {
        node(n);
        edges.push({
          from: id,
          to: n,
          kind: 'next_action',
          source: 'declared',
          weight: support(id, n),
          followRate: rateOf(power.name, tool, 'next_action', n),
        });
      }
      for (const t of transitions.get(id) ?? []) {
        if (t.support < minSupport || edges.some((e) => e.from === id && e.to === t.to)) continue;
        node(t.to);
        edges.push({
          from: id,
          to: t.to,
          kind: 'next_action',
          source: 'learned',
          weight: t.support,
          followRate: rateOf(power.name, tool, 'next_action', t.to),
        });
      }
    }
  }
  return { nodes: [...nodes.values()], edges };
}
