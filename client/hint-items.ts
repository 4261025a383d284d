/** What the Hints view shows, built from the protocol's HintsPayload. No `vscode` import: hints-view.ts makes TreeItems of it. */
import type { HintEdgeInfo, HintEventInfo, HintFollowRateInfo, HintsPayload } from '../protocol/records.js';
import { ago } from './activity-items.js';
import type { ItemModel } from './tree-items.js';

export type HintNode =
  | { kind: 'network' }
  | { kind: 'recent' }
  | { kind: 'power'; power: string }
  | { kind: 'tool'; id: string }
  | { kind: 'edge'; tool: string; edge: HintEdgeInfo }
  | { kind: 'errorHint'; rate: HintFollowRateInfo }
  | { kind: 'event'; event: HintEventInfo; index: number };

const short = (id: string) => id.slice(id.indexOf(':') + 1);

export function percentText(rate: number | null): string {
  return rate === null ? 'not followed up yet' : `followed ${Math.round(rate * 100)}%`;
}

export function edgeText(edge: HintEdgeInfo): string {
  return [
    edge.kind === 'prerequisite' ? 'prerequisite' : 'next action',
    edge.source,
    `used ${edge.weight}×`,
    percentText(edge.followRate),
  ].join(' · ');
}

/** Tools with at least one hint (an edge, or an error hint that fired). */
export function toolsWithHints(payload: HintsPayload, power: string): string[] {
  const ids = new Set<string>();
  for (const edge of payload.edges) for (const id of [edge.from, edge.to]) if (id.startsWith(`${power}:`)) ids.add(id);
  for (const rate of errorHints(payload)) if (rate.power === power) ids.add(`${rate.power}:${rate.tool}`);
  return [...ids].sort();
}

/** The hints a tool gives: prerequisites into it, next actions out of it. */
export function edgesOf(payload: HintsPayload, tool: string): HintEdgeInfo[] {
  return payload.edges.filter((edge) => (edge.kind === 'prerequisite' ? edge.to === tool : edge.from === tool));
}

function errorHints(payload: HintsPayload): HintFollowRateInfo[] {
  return payload.followRates.filter((rate) => rate.kind === 'error_hint' && payload.powers.includes(rate.power));
}

export function hintChildren(payload: HintsPayload | undefined, node?: HintNode): HintNode[] {
  if (!payload) return [];
  if (!node) {
    const roots: HintNode[] = [];
    if (payload.powers.length > 0) roots.push({ kind: 'network' });
    if (payload.recent.length > 0) roots.push({ kind: 'recent' });
    return roots;
  }
  switch (node.kind) {
    case 'network':
      return payload.powers.map((power): HintNode => ({ kind: 'power', power }));
    case 'power':
      return toolsWithHints(payload, node.power).map((id): HintNode => ({ kind: 'tool', id }));
    case 'tool':
      return [
        ...edgesOf(payload, node.id).map((edge): HintNode => ({ kind: 'edge', tool: node.id, edge })),
        ...errorHints(payload)
          .filter((rate) => `${rate.power}:${rate.tool}` === node.id)
          .map((rate): HintNode => ({ kind: 'errorHint', rate })),
      ];
    case 'recent':
      return payload.recent.map((event, index): HintNode => ({ kind: 'event', event, index }));
    case 'edge':
    case 'errorHint':
    case 'event':
      return [];
  }
}

const KIND_TEXT: Record<HintEventInfo['kind'], string> = {
  prerequisite: 'prerequisite suggested',
  next_action: 'next actions suggested',
  error_hint: 'error hint',
};

export function eventLabel(event: HintEventInfo): string {
  switch (event.kind) {
    case 'prerequisite':
      return `${event.tool}: ${event.suggested.map(short).join(', ')} first`;
    case 'next_action':
      return `${event.tool} → ${event.suggested.map(short).join(', ')}`;
    case 'error_hint':
      return `${event.tool}: on "${event.hint}"`;
  }
}

export function hintItem(payload: HintsPayload, node: HintNode, now = Date.now()): ItemModel {
  switch (node.kind) {
    case 'network':
      return {
        id: 'hints:network',
        label: 'Hint network',
        description: `${payload.powers.join(', ')} · ${payload.edges.length} ${payload.edges.length === 1 ? 'hint' : 'hints'}`,
        tooltip:
          "The active powers' tools with their prerequisites and next actions, " +
          'declared in spell files or learned from the activity log, with how often agents followed them.',
        contextValue: 'grimoire.hints.network',
        icon: { id: 'type-hierarchy' },
        collapsible: true,
      };
    case 'recent':
      return {
        id: 'hints:recent',
        label: 'Recent hints',
        description: `${payload.recent.length} fired`,
        tooltip: 'Hints the gateway gave agents in recent sessions, and what the agent did next.',
        contextValue: 'grimoire.hints.recent',
        icon: { id: 'history' },
        collapsible: true,
      };
    case 'power': {
      const tools = toolsWithHints(payload, node.power);
      return {
        id: `hints:power:${node.power}`,
        label: node.power,
        description: tools.length
          ? `${tools.length} ${tools.length === 1 ? 'tool' : 'tools'} with hints`
          : 'no hints declared or learned yet',
        tooltip: tools.length
          ? `${node.power}: ${tools.map(short).join(', ')}`
          : `${node.power} declares no hints, and none were learned from calls yet.`,
        contextValue: 'grimoire.hints.power',
        icon: { id: 'plug' },
        collapsible: tools.length > 0,
      };
    }
    case 'tool': {
      const calls = payload.nodes.find((n) => n.id === node.id)?.calls ?? 0;
      const edges = edgesOf(payload, node.id);
      return {
        id: `hints:tool:${node.id}`,
        label: short(node.id),
        description:
          `${calls === 0 ? 'not called yet' : calls === 1 ? 'called once' : `called ${calls}×`}` +
          `${edges.length ? ` · ${edges.length} ${edges.length === 1 ? 'hint' : 'hints'}` : ''}`,
        tooltip: node.id,
        contextValue: 'grimoire.hints.tool',
        icon: { id: 'tools' },
        collapsible: hintChildren(payload, node).length > 0,
      };
    }
    case 'edge': {
      const { edge } = node;
      const prerequisite = edge.kind === 'prerequisite';
      const other = prerequisite ? edge.from : edge.to;
      return {
        id: `hints:edge:${node.tool}:${edge.kind}:${edge.from}>${edge.to}`,
        label: `${prerequisite ? 'needs' : 'then'} ${other.startsWith(`${node.tool.split(':')[0]}:`) ? short(other) : other}`,
        description: edgeText(edge),
        tooltip:
          `${edge.from} → ${edge.to}\n` +
          `${prerequisite ? `${edge.from} should run before ${edge.to}` : `after ${edge.from}, ${edge.to} usually comes next`}` +
          ` (${edge.source}).\nAgents went from one to the other ${edge.weight} times; ` +
          `${percentText(edge.followRate)}.`,
        contextValue: `grimoire.hints.edge.${edge.source}`,
        icon: prerequisite
          ? { id: 'arrow-left' }
          : edge.source === 'learned'
            ? { id: 'sparkle' }
            : { id: 'arrow-right' },
        collapsible: false,
      };
    }
    case 'errorHint': {
      const { rate } = node;
      return {
        id: `hints:error:${rate.power}:${rate.tool}:${rate.hint}`,
        label: `on error "${rate.hint}"`,
        description: `error hint · shown ${rate.shown}× · ${percentText(rate.rate)}`,
        tooltip: `When ${rate.power}:${rate.tool} fails with "${rate.hint}", the agent gets the spell's hint.`,
        contextValue: 'grimoire.hints.errorHint',
        icon: { id: 'warning' },
        collapsible: false,
      };
    }
    case 'event': {
      const { event } = node;
      return {
        id: `hints:event:${event.at}:${event.session}:${event.power}:${event.tool}:${event.kind}:${node.index}`,
        label: eventLabel(event),
        description: [event.power, event.outcome ?? 'pending', ago(event.at, now)].join(' · '),
        tooltip:
          `${KIND_TEXT[event.kind]} (${event.source}) for ${event.power}:${event.tool}\n` +
          `${event.suggested.length ? `Suggested: ${event.suggested.join(', ')}\n` : ''}What the agent did: ` +
          `${event.outcome ?? 'nothing yet'}\n${new Date(event.at).toLocaleString()} · session ${event.session}`,
        contextValue: 'grimoire.hints.event',
        icon:
          event.outcome === 'followed'
            ? { id: 'check', color: 'testing.iconPassed' }
            : event.outcome === null
              ? { id: 'lightbulb', color: 'editorLightBulb.foreground' }
              : { id: 'debug-step-over' },
        collapsible: false,
      };
    }
  }
}
