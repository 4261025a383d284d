/** Draws a laid-out hint network (graph-layout.ts) as SVG: a box per power, a node per tool, an arrow per hint. */
import { svg, svgTitle } from './dom.js';
import { callsText, LABEL_HEIGHT, type GraphLayout } from './graph-layout.js';

/** Arrowheads of one size whatever the edge's width. */
function marker(id: string, className: string): SVGElement {
  return svg(
    'marker',
    {
      id,
      viewBox: '0 0 10 10',
      refX: 9,
      refY: 5,
      markerWidth: 9,
      markerHeight: 9,
      markerUnits: 'userSpaceOnUse',
      orient: 'auto-start-reverse',
    },
    svg('path', { d: 'M0,0 L10,5 L0,10 z', class: className }),
  );
}

const short = (id: string) => id.slice(id.indexOf(':') + 1);

export function hintGraph(layout: GraphLayout): SVGElement {
  const root = svg('svg', {
    class: 'hint-graph',
    viewBox: `0 0 ${layout.width} ${layout.height}`,
    width: layout.width,
    height: layout.height,
    role: 'img',
    'aria-label': `Hint network: ${layout.nodes.length} tools, ${layout.edges.length} hints`,
    'data-testid': 'hint-graph',
  });
  root.append(
    svg(
      'defs',
      {},
      marker('grimoire-arrow-prerequisite', 'arrow kind-prerequisite'),
      marker('grimoire-arrow-next_action', 'arrow kind-next_action'),
    ),
  );
  for (const cluster of layout.clusters) {
    root.append(
      svg(
        'g',
        { class: 'cluster', 'data-cluster': cluster.power },
        svg('rect', { x: cluster.x, y: cluster.y, width: cluster.width, height: cluster.height, rx: 8 }),
        svg('text', { x: cluster.x + 10, y: cluster.y + 16, class: 'cluster-title' }, cluster.power),
      ),
    );
  }
  for (const edge of layout.edges) {
    const what =
      edge.kind === 'prerequisite'
        ? `${short(edge.from)} before ${short(edge.to)}`
        : `${short(edge.to)} after ${short(edge.from)}`;
    const group = svg(
      'g',
      {
        class: `edge kind-${edge.kind} source-${edge.source}`,
        'data-edge': `${edge.from}>${edge.to}`,
        'data-kind': edge.kind,
        'data-source': edge.source,
      },
      svg('path', {
        d: edge.path,
        'stroke-width': edge.strokeWidth,
        'marker-end': `url(#grimoire-arrow-${edge.kind})`,
      }),
      svgTitle(
        `${edge.kind === 'prerequisite' ? 'Prerequisite' : 'Next action'} (${edge.source}): ${what}. ` +
          `Used ${edge.weight} times; ` +
          `${edge.followRate === null ? 'not followed up yet' : `followed ${Math.round(edge.followRate * 100)}%`}.`,
      ),
    );
    if (edge.label) {
      const { x, y, width, text } = edge.label;
      group.append(
        svg('rect', {
          x: x - width / 2,
          y: y - LABEL_HEIGHT / 2,
          width,
          height: LABEL_HEIGHT,
          rx: LABEL_HEIGHT / 2,
          class: 'edge-label-box',
        }),
        svg('text', { x, y: y + 3.5, class: 'edge-label' }, text),
      );
    }
    root.append(group);
  }
  for (const node of layout.nodes) {
    root.append(
      svg(
        'g',
        {
          class: `node${node.calls > 0 ? ' used' : ''}`,
          'data-node': node.id,
          transform: `translate(${node.x},${node.y})`,
        },
        svg('rect', { width: node.width, height: node.height, rx: 5 }),
        svg('text', { x: node.width / 2, y: 17, class: 'node-title' }, node.tool),
        svg('text', { x: node.width / 2, y: 32, class: 'node-calls' }, callsText(node.calls)),
        svgTitle(`${node.id}: ${callsText(node.calls)}`),
      ),
    );
  }
  return root;
}
