import { test } from 'node:test';
import assert from 'node:assert/strict';
import { matchErrorHint, unknownHintTools } from '../../server/hints/declared-hints.js';
import { HintEvents } from '../../server/hints/hint-events.js';
import { hintNetwork } from '../../server/hints/hint-network.js';
import { SessionContext, SessionContexts } from '../../server/hints/session-context.js';
import { Store } from '../../server/store/store.js';
import { tempDir } from '../helpers/temp.js';

const extensions = {
  hints: {
    create_entities: { prerequisites: ['search_nodes'], next_actions: ['add_observations', 'ghost_tool'] },
    not_a_tool: { audit: true },
  },
};

test('error hints match by code or message, case-insensitive; regular expressions work too', () => {
  const hints = { 'not found': 'create it first', E_DUP: 'it exists', '^timeout after \\d+': 'try smaller input' };
  assert.equal(matchErrorHint(hints, undefined, 'Entity with name X NOT FOUND')?.hint, 'create it first');
  assert.equal(matchErrorHint(hints, 'E_DUP', 'whatever')?.key, 'E_DUP');
  assert.equal(matchErrorHint(hints, undefined, 'Timeout after 30 s')?.hint, 'try smaller input');
  assert.equal(matchErrorHint(hints, undefined, 'permission denied'), undefined);
});

test('hints that name tools the power does not have are reported against its real tools', () => {
  const problems = unknownHintTools('memory', extensions, ['create_entities', 'search_nodes', 'add_observations']);
  assert.equal(problems.length, 2);
  assert.match(problems.join('\n'), /hints\.not_a_tool: 'memory' has no tool 'not_a_tool'/);
  assert.match(problems.join('\n'), /hints\.create_entities\.next_actions: 'memory' has no tool 'ghost_tool'/);
});

test('session context: completions; a prerequisite is suggested once per tool', () => {
  const session = new SessionContext('s');
  session.complete('m:a');
  assert.ok(session.hasCompleted('m:a') && !session.hasCompleted('m:b'));
  assert.equal(session.firstSuggestion('m:b'), true);
  assert.equal(session.firstSuggestion('m:b'), false);
});

test('session contexts stay bounded: past the cap the least recently used session is forgotten', () => {
  const contexts = new SessionContexts(3);
  for (const id of ['s1', 's2', 's3']) contexts.get(id).complete('m:a');
  contexts.get('s1');
  contexts.get('s4');
  assert.equal(contexts.get('s1').hasCompleted('m:a'), true, 's1 was used last but one: kept');
  assert.equal(contexts.get('s2').hasCompleted('m:a'), false, 's2, the least recently used, was forgotten');
});

test('follow-through: followed, ignored, proceeded and blind retries are counted per hint', async () => {
  const { dir, cleanup } = tempDir();
  try {
    const store = await Store.open({ dataDir: dir, fsync: false });
    const events = new HintEvents(store);
    events.fired('s1', {
      power: 'm',
      tool: 'create',
      kind: 'next_action',
      hint: 'm:add',
      source: 'declared',
      suggested: ['m:add'],
    });
    events.resolve('s1', 'm:add', () => 'm:add {}');
    events.fired('s2', {
      power: 'm',
      tool: 'create',
      kind: 'next_action',
      hint: 'm:add',
      source: 'declared',
      suggested: ['m:add'],
    });
    events.resolve('s2', 'm:other', () => 'm:other {}');
    events.fired('s3', {
      power: 'm',
      tool: 'create',
      kind: 'prerequisite',
      hint: 'm:search',
      source: 'declared',
      suggested: ['m:search'],
    });
    events.resolve('s3', 'm:create', () => 'm:create {}');
    events.fired('s4', {
      power: 'm',
      tool: 'add',
      kind: 'error_hint',
      hint: 'not found',
      source: 'declared',
      suggested: [],
      failedCall: 'm:add {"x":1}',
    });
    events.resolve('s4', 'm:add', () => 'm:add {"x":1}');
    events.resolve('s4', 'm:add', () => 'm:add {"x":1}');
    const rates = await events.followRates();
    const next = rates.find((r) => r.kind === 'next_action')!;
    assert.deepEqual([next.shown, next.followed, next.ignored, next.rate], [2, 1, 1, 0.5]);
    assert.equal(rates.find((r) => r.kind === 'prerequisite')!.proceeded, 1);
    assert.equal(
      rates.find((r) => r.kind === 'error_hint')!.ignored,
      1,
      'an identical retry ignores the error hint; resolved once',
    );
    assert.equal((await events.recent(10)).length, 4);
    store.close();
  } finally {
    cleanup();
  }
});

test('the hint network: declared edges, learned ones above the minimum, weights and follow rates', () => {
  const transitions = new Map([
    ['m:search_nodes', [{ from: 'm:search_nodes', to: 'm:create_entities', support: 4, errorRate: 0 }]],
    [
      'm:read_graph',
      [
        { from: 'm:read_graph', to: 'm:open_nodes', support: 5, errorRate: 0 },
        { from: 'm:read_graph', to: 'm:add_observations', support: 1, errorRate: 0 },
      ],
    ],
  ]);
  const rates = [
    {
      power: 'm',
      tool: 'create_entities',
      kind: 'next_action' as const,
      hint: 'm:add_observations,m:ghost_tool',
      source: 'declared' as const,
      shown: 4,
      followed: 3,
      ignored: 1,
      proceeded: 0,
      rate: 0.75,
    },
  ];
  const network = hintNetwork(
    [
      {
        name: 'm',
        tools: ['create_entities', 'search_nodes', 'add_observations', 'read_graph', 'open_nodes'],
        extensions,
      },
    ],
    transitions,
    new Map([['m:read_graph', 7]]),
    rates,
    3,
  );
  const edge = (from: string, to: string) => network.edges.find((e) => e.from === from && e.to === to);
  assert.equal(edge('m:search_nodes', 'm:create_entities')?.kind, 'prerequisite');
  assert.equal(edge('m:search_nodes', 'm:create_entities')?.weight, 4);
  assert.equal(edge('m:create_entities', 'm:add_observations')?.followRate, 0.75);
  assert.equal(edge('m:read_graph', 'm:open_nodes')?.source, 'learned');
  assert.equal(edge('m:read_graph', 'm:add_observations'), undefined, 'below the support minimum');
  assert.equal(network.nodes.find((n) => n.id === 'm:read_graph')?.calls, 7);
});
