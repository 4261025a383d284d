/**
 * The hint network laid out with dagre (@dagrejs/dagre, a layered layout for directed graphs):
 * tools as nodes grouped in one box per power, prerequisites and next actions as edges running
 * left to right, thicker the more agents used them. Pure geometry for hint-graph.ts to draw as SVG;
 * no DOM, unit-tested under Node.
 */
import { Graph, layout } from '@dagrejs/dagre';
import type { HintEdgeInfo, HintNodeInfo } from '../protocol/records.js';

export interface LaidOutNode extends HintNodeInfo {
  /** Top-left corner. */
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LaidOutCluster {
  power: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LaidOutEdge extends HintEdgeInfo {
  /** SVG path data through dagre's points. */
  path: string;
  strokeWidth: number;
  /** Uses and follow rate, centred at dagre's label position; absent when there is nothing to say. */
  label?: { x: number; y: number; width: number; text: string };
}

export interface GraphLayout {
  width: number;
  height: number;
  nodes: LaidOutNode[];
  clusters: LaidOutCluster[];
  edges: LaidOutEdge[];
  /** Tools with no hint, left out of the drawing. */
  hiddenTools: number;
}

export interface LayoutOptions {
  /** Average width of one character of the node font, in px, when `textWidth` is not given. */
  charWidth?: number;
  /** The width of a node's text in px (the webview measures it with its font). */
  textWidth?: (text: string) => number;
}

export const NODE_HEIGHT = 40;
/**
 * Dagre keeps (nodesep + edgesep) / 2 between a power's box and its nodes: room for the power's
 * name inside the box, above its first node.
 */
const NODE_SEP = 40;
const EDGE_SEP = 14;
export const CLUSTER_TITLE_ROOM = (NODE_SEP + EDGE_SEP) / 2;
export const LABEL_HEIGHT = 16;
const NODE_PADDING = 24;

export function edgeLabelText(edge: Pick<HintEdgeInfo, 'weight' | 'followRate'>): string {
  const parts = [
    ...(edge.weight > 0 ? [`${edge.weight}×`] : []),
    ...(edge.followRate !== null ? [`${Math.round(edge.followRate * 100)}%`] : []),
  ];
  return parts.join(' · ');
}

export function strokeWidthOf(weight: number): number {
  return Math.round((1.25 + Math.min(4, Math.log2(1 + Math.max(0, weight)))) * 100) / 100;
}

export function callsText(calls: number): string {
  return calls === 0 ? 'not called yet' : calls === 1 ? 'called once' : `called ${calls}×`;
}

/** A smooth path through every point (Catmull-Rom as cubic Béziers), so that it passes through the label's point too. */
export function smoothPath(points: Array<{ x: number; y: number }>): string {
  const r = (n: number) => Math.round(n * 10) / 10;
  const at = (p: { x: number; y: number }) => `${r(p.x)},${r(p.y)}`;
  if (points.length === 0) return '';
  if (points.length === 2) return `M${at(points[0])} L${at(points[1])}`;
  let d = `M${at(points[0])}`;
  for (let i = 0; i < points.length - 1; i += 1) {
    const p0 = points[Math.max(0, i - 1)];
    const p1 = points[i];
    const p2 = points[i + 1];
    const p3 = points[Math.min(points.length - 1, i + 2)];
    const c1 = { x: p1.x + (p2.x - p0.x) / 6, y: p1.y + (p2.y - p0.y) / 6 };
    const c2 = { x: p2.x - (p3.x - p1.x) / 6, y: p2.y - (p3.y - p1.y) / 6 };
    d += ` C${at(c1)} ${at(c2)} ${at(p2)}`;
  }
  return d;
}

export function layoutHintGraph(
  input: { nodes: HintNodeInfo[]; edges: HintEdgeInfo[] },
  options: LayoutOptions = {},
): GraphLayout {
  const charWidth = options.charWidth ?? 7;
  const textWidth = options.textWidth ?? ((text: string) => text.length * charWidth);
  // Labels use a smaller font than node titles.
  const labelWidth = (text: string) => Math.ceil(textWidth(text) * 0.88) + 10;
  const linked = new Set(input.edges.flatMap((edge) => [edge.from, edge.to]));
  const nodes = input.nodes.filter((node) => linked.has(node.id));
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const graph = new Graph({ compound: true, multigraph: true });
  graph.setGraph({ rankdir: 'LR', nodesep: NODE_SEP, ranksep: 70, edgesep: EDGE_SEP, marginx: 12, marginy: 12 });
  graph.setDefaultEdgeLabel(() => ({}));
  const powers = [...new Set(nodes.map((node) => node.power))];
  for (const power of powers) graph.setNode(`cluster:${power}`, {});
  for (const node of nodes) {
    const width = Math.ceil(Math.max(textWidth(node.tool), textWidth(callsText(node.calls)))) + NODE_PADDING;
    graph.setNode(node.id, { width, height: NODE_HEIGHT });
    graph.setParent(node.id, `cluster:${node.power}`);
  }
  const edges = input.edges.filter((edge) => byId.has(edge.from) && byId.has(edge.to));
  edges.forEach((edge, index) => {
    const text = edgeLabelText(edge);
    graph.setEdge(
      edge.from,
      edge.to,
      {
        weight: 1 + edge.weight,
        minlen: 1,
        width: text ? labelWidth(text) : 0,
        height: text ? LABEL_HEIGHT : 0,
        labelpos: 'c',
      },
      `e${index}`,
    );
  });
  layout(graph);

  const laidNodes: LaidOutNode[] = nodes.map((node) => {
    const label = graph.node(node.id);
    return {
      ...node,
      x: label.x! - label.width / 2,
      y: label.y! - label.height / 2,
      width: label.width,
      height: label.height,
    };
  });
  const clusters: LaidOutCluster[] = powers.map((power) => {
    const label = graph.node(`cluster:${power}`);
    return {
      power,
      x: label.x! - label.width / 2,
      y: label.y! - label.height / 2,
      width: label.width,
      height: label.height,
    };
  });
  const laidEdges: LaidOutEdge[] = edges.map((edge, index) => {
    const label = graph.edge(edge.from, edge.to, `e${index}`);
    const text = edgeLabelText(edge);
    return {
      ...edge,
      path: smoothPath(label.points ?? []),
      strokeWidth: strokeWidthOf(edge.weight),
      ...(text && label.x !== undefined && label.y !== undefined
        ? { label: { x: label.x, y: label.y, width: labelWidth(text), text } }
        : {}),
    };
  });
  const size = graph.graph();
  return {
    width: Math.ceil(size.width ?? 0),
    height: Math.ceil(size.height ?? 0),
    nodes: laidNodes,
    clusters,
    edges: laidEdges,
    hiddenTools: input.nodes.length - nodes.length,
  };
}
