import { test } from 'node:test';
import assert from 'node:assert/strict';
import { edgesOf, hintChildren, hintItem, toolsWithHints, type HintNode } from '../../client/hint-items.js';
import type { HintsPayload } from '../../protocol/records.js';

const now = Date.parse('2026-11-22T10:00:00Z');
const node = (power: string, tool: string, calls = 0) => ({ id: `${power}:${tool}`, power, tool, calls });

const payload: HintsPayload = {
  scope: 'active',
  powers: ['memory', 'everything'],
  nodes: [
    node('memory', 'search_nodes', 4),
    node('memory', 'create_entities', 2),
    node('memory', 'create_relations'),
    node('memory', 'add_observations'),
    node('memory', 'read_graph', 9),
    node('everything', 'echo'),
  ],
  edges: [
    {
      from: 'memory:search_nodes',
      to: 'memory:create_entities',
      kind: 'prerequisite',
      source: 'declared',
      weight: 2,
      followRate: 0.5,
    },
    {
      from: 'memory:create_entities',
      to: 'memory:create_relations',
      kind: 'next_action',
      source: 'declared',
      weight: 1,
      followRate: null,
    },
    {
      from: 'memory:create_entities',
      to: 'memory:add_observations',
      kind: 'next_action',
      source: 'learned',
      weight: 3,
      followRate: 1,
    },
  ],
  followRates: [
    {
      power: 'memory',
      tool: 'add_observations',
      kind: 'error_hint',
      hint: 'not found',
      source: 'declared',
      shown: 2,
      followed: 1,
      ignored: 1,
      proceeded: 0,
      rate: 0.5,
    },
  ],
  recent: [
    {
      at: now - 60_000,
      session: 's',
      power: 'memory',
      tool: 'create_entities',
      kind: 'prerequisite',
      hint: 'memory:search_nodes',
      source: 'declared',
      suggested: ['memory:search_nodes'],
      outcome: 'followed',
    },
    {
      at: now - 5_000,
      session: 's',
      power: 'memory',
      tool: 'create_entities',
      kind: 'next_action',
      hint: 'memory:create_relations',
      source: 'declared',
      suggested: ['memory:create_relations', 'memory:add_observations'],
      outcome: null,
    },
    {
      at: now - 1_000,
      session: 's',
      power: 'memory',
      tool: 'add_observations',
      kind: 'error_hint',
      hint: 'not found',
      source: 'declared',
      suggested: [],
      outcome: 'ignored',
    },
  ],
};

const labels = (nodes: HintNode[]) => nodes.map((n) => hintItem(payload, n, now).label);

test('the Hints view: the network of the active powers, then the hints given lately; nothing at all before any', () => {
  assert.deepEqual(hintChildren(undefined), []);
  assert.deepEqual(
    hintChildren({ ...payload, powers: [], edges: [], recent: [] }),
    [],
    'empty: the welcome text shows',
  );
  const roots = hintChildren(payload);
  assert.deepEqual(labels(roots), ['Hint network', 'Recent hints']);
  assert.equal(hintItem(payload, roots[0], now).description, 'memory, everything · 3 hints');
  assert.equal(hintItem(payload, roots[1], now).description, '3 fired');
  const powers = hintChildren(payload, roots[0]);
  assert.deepEqual(labels(powers), ['memory', 'everything']);
  assert.equal(hintItem(payload, powers[0], now).description, '4 tools with hints');
  assert.equal(hintItem(payload, powers[1], now).description, 'no hints declared or learned yet');
  assert.equal(hintItem(payload, powers[1], now).collapsible, false);
});

test('a tool lists its prerequisites and next actions with source, use and follow rate, and its error hints', () => {
  assert.deepEqual(toolsWithHints(payload, 'memory'), [
    'memory:add_observations',
    'memory:create_entities',
    'memory:create_relations',
    'memory:search_nodes',
  ]);
  assert.equal(edgesOf(payload, 'memory:create_entities').length, 3);
  const tool: HintNode = { kind: 'tool', id: 'memory:create_entities' };
  assert.equal(hintItem(payload, tool, now).description, 'called 2× · 3 hints');
  const edges = hintChildren(payload, tool);
  assert.deepEqual(labels(edges), ['needs search_nodes', 'then create_relations', 'then add_observations']);
  assert.deepEqual(
    edges.map((e) => hintItem(payload, e, now).description),
    [
      'prerequisite · declared · used 2× · followed 50%',
      'next action · declared · used 1× · not followed up yet',
      'next action · learned · used 3× · followed 100%',
    ],
  );
  assert.equal(hintItem(payload, edges[2], now).icon.id, 'sparkle', 'learned edges look different');
  const errorHints = hintChildren(payload, { kind: 'tool', id: 'memory:add_observations' });
  assert.deepEqual(labels(errorHints), ['on error "not found"']);
  assert.equal(hintItem(payload, errorHints[0], now).description, 'error hint · shown 2× · followed 50%');
});

test('recent hints say what was suggested, for which tool, and what the agent did', () => {
  const events = hintChildren(payload, { kind: 'recent' });
  assert.deepEqual(labels(events), [
    'create_entities: search_nodes first',
    'create_entities → create_relations, add_observations',
    'add_observations: on "not found"',
  ]);
  assert.deepEqual(
    events.map((e) => hintItem(payload, e, now).description),
    ['memory · followed · 1 min ago', 'memory · pending · 5 s ago', 'memory · ignored · 1 s ago'],
  );
  const ids = events.map((e) => hintItem(payload, e, now).id);
  assert.equal(new Set(ids).size, ids.length, 'ids are unique');
});
