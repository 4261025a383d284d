import { test } from 'node:test';
import assert from 'node:assert/strict';
import { callsText, edgeLabelText, layoutHintGraph, smoothPath, strokeWidthOf } from '../../webview/graph-layout.js';
import type { HintEdgeInfo, HintNodeInfo } from '../../protocol/records.js';

const node = (power: string, tool: string, calls = 0): HintNodeInfo => ({ id: `${power}:${tool}`, power, tool, calls });
const edge = (
  from: string,
  to: string,
  kind: HintEdgeInfo['kind'],
  weight = 0,
  source: HintEdgeInfo['source'] = 'declared',
  followRate: number | null = null,
): HintEdgeInfo => ({ from, to, kind, source, weight, followRate });

const nodes = [
  node('memory', 'search_nodes', 7),
  node('memory', 'create_entities', 5),
  node('memory', 'create_relations'),
  node('memory', 'add_observations', 1),
  node('memory', 'read_graph', 2),
  node('filesystem', 'list_directory', 3),
  node('filesystem', 'write_file'),
];
const edges = [
  edge('memory:search_nodes', 'memory:create_entities', 'prerequisite', 4, 'declared', 0.75),
  edge('memory:create_entities', 'memory:create_relations', 'next_action'),
  edge('memory:create_entities', 'memory:add_observations', 'next_action', 1),
  edge('filesystem:list_directory', 'filesystem:write_file', 'prerequisite', 2),
  edge('filesystem:list_directory', 'memory:search_nodes', 'next_action', 9, 'learned', 1),
];

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}
const overlap = (a: Rect, b: Rect) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const inside = (a: Rect, b: Rect) =>
  a.x >= b.x && a.y >= b.y && a.x + a.width <= b.x + b.width && a.y + a.height <= b.y + b.height;

test(
  'dagre lays the tools with hints out left to right, none overlapping, each inside its power box; ' +
    'tools without hints are counted, not drawn',
  () => {
    const layout = layoutHintGraph({ nodes, edges });
    assert.deepEqual(
      layout.nodes.map((n) => n.id).sort(),
      nodes
        .filter((n) => n.tool !== 'read_graph')
        .map((n) => n.id)
        .sort(),
    );
    assert.equal(layout.hiddenTools, 1);
    for (const [i, a] of layout.nodes.entries()) {
      for (const b of layout.nodes.slice(i + 1)) assert.ok(!overlap(a, b), `${a.id} / ${b.id}`);
      assert.ok(
        inside(
          a,
          layout.clusters.find((c) => c.power === a.power)!,
        ),
        `${a.id} in its box`,
      );
      assert.ok(inside(a, { x: 0, y: 0, width: layout.width, height: layout.height }), `${a.id} in the drawing`);
    }
    assert.deepEqual(layout.clusters.map((c) => c.power).sort(), ['filesystem', 'memory']);
    assert.ok(!overlap(layout.clusters[0], layout.clusters[1]), 'power boxes do not overlap');
    const x = (id: string) => layout.nodes.find((n) => n.id === id)!.x;
    assert.ok(
      x('memory:search_nodes') < x('memory:create_entities') &&
        x('memory:create_entities') < x('memory:create_relations'),
      'prerequisite, then tool, then next action',
    );
    const wide = layout.nodes.find((n) => n.tool === 'create_relations')!;
    assert.ok(wide.width > layout.nodes.find((n) => n.tool === 'write_file')!.width, 'nodes fit their names');
  },
);

test('edges: a path from node to node through the label point, thicker with use, labelled with uses and follow rate', () => {
  const layout = layoutHintGraph({ nodes, edges });
  assert.equal(layout.edges.length, edges.length);
  for (const e of layout.edges) {
    assert.match(e.path, /^M[\d.]+,[\d.]+( [LC]?[\d.]+,[\d.]+)+$/);
    const [sx, sy] = e.path.slice(1).split(' ')[0].split(',').map(Number);
    const from = layout.nodes.find((n) => n.id === e.from)!;
    assert.ok(
      sx >= from.x - 1 && sx <= from.x + from.width + 1 && sy >= from.y - 1 && sy <= from.y + from.height + 1,
      `${e.from}>${e.to} starts on its source`,
    );
  }
  const used = layout.edges.find((e) => e.to === 'memory:create_entities')!;
  assert.deepEqual(used.label && [used.label.text, used.path.includes(`${used.label.x},${used.label.y}`)], [
    '4× · 75%',
    true,
  ]);
  assert.equal(
    layout.edges.find((e) => e.to === 'memory:create_relations')!.label,
    undefined,
    'nothing to say, no label',
  );
  assert.ok(strokeWidthOf(9) > strokeWidthOf(1) && strokeWidthOf(1) > strokeWidthOf(0));
  assert.ok(strokeWidthOf(10_000) <= 5.25, 'capped');
});

test('widths come from the measured text when the webview gives a measure; an empty network lays out empty', () => {
  const measured = layoutHintGraph({ nodes, edges }, { textWidth: (text) => text.length * 10 });
  assert.equal(measured.nodes.find((n) => n.tool === 'create_relations')!.width, 'create_relations'.length * 10 + 24);
  const empty = layoutHintGraph({ nodes, edges: [] });
  assert.deepEqual(
    [empty.nodes.length, empty.edges.length, empty.clusters.length, empty.hiddenTools],
    [0, 0, 0, nodes.length],
  );
  assert.deepEqual(
    [
      edgeLabelText({ weight: 0, followRate: null }),
      edgeLabelText({ weight: 3, followRate: 0.5 }),
      edgeLabelText({ weight: 0, followRate: 0 }),
    ],
    ['', '3× · 50%', '0%'],
  );
  assert.deepEqual([callsText(0), callsText(1), callsText(4)], ['not called yet', 'called once', 'called 4×']);
  assert.equal(
    smoothPath([
      { x: 0, y: 0 },
      { x: 10, y: 0 },
    ]),
    'M0,0 L10,0',
  );
  assert.equal(
    smoothPath([
      { x: 0, y: 0 },
      { x: 10, y: 10 },
      { x: 20, y: 0 },
    ]),
    'M0,0 C1.7,1.7 6.7,10 10,10 C13.3,10 18.3,1.7 20,0',
  );
});
