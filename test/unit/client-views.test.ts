import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EndpointTracker, authorizationHeaders } from '../../client/endpoint-tracker.js';
import { nothingToPickText, powerPicks, resolveTitle, scorePick } from '../../client/picks.js';
import { statusBarModel } from '../../client/status-model.js';
import { Timings } from '../../client/timings.js';
import {
  activationMessage,
  annotationTags,
  issueItem,
  powerItem,
  toolCounts,
  toolItem,
} from '../../client/tree-items.js';
import type { GatewayStatus, PowerInfo, ResolveResult } from '../../protocol/records.js';
import { parseSpell } from '../../server/powers/spell-loader.js';

function power(overrides: Partial<PowerInfo> = {}): PowerInfo {
  return {
    name: 'memory',
    version: '1.0.0',
    description: 'A knowledge graph.',
    keywords: ['memory', 'graph', 'facts'],
    source: { kind: 'demo', file: '/ext/server/demo/powers/memory.spell.yaml', readOnly: true },
    serverId: `server-of-${'memory'}`,
    state: 'stopped',
    active: false,
    agentSessions: 0,
    tools: [
      { name: 'read_graph', description: 'Read it all.', annotations: { readOnlyHint: true } },
      { name: 'delete_entities', description: 'Delete.', annotations: { destructiveHint: true, idempotentHint: true } },
    ],
    problems: [],
    ...overrides,
  };
}

const ready: GatewayStatus = {
  health: 'ready',
  url: 'http://127.0.0.1:4000/mcp',
  endpointVersion: 1,
  powers: 3,
  activePowers: 1,
  crashedPowers: 0,
  issues: 0,
};

test('a power item shows its state, tool count and source, and offers the matching inline action', () => {
  const stopped = powerItem(power());
  assert.equal(stopped.label, 'memory');
  assert.equal(stopped.description, 'stopped · 2 tools · demo');
  assert.equal(stopped.contextValue, 'grimoire.power.inactive');
  assert.equal(stopped.icon.id, 'circle-large-outline');
  assert.equal(stopped.collapsible, true);
  assert.match(stopped.tooltip, /Source: demo \(\/ext\/server\/demo\/powers\/memory\.spell\.yaml\), read-only/);

  const active = powerItem(power({ state: 'active', active: true, agentSessions: 1 }));
  assert.equal(active.contextValue, 'grimoire.power.active');
  assert.equal(active.icon.id, 'pass-filled');
  assert.match(active.description, /^active/);
  assert.match(active.tooltip, /In the tool list of 1 agent session\b/);

  // What the agent sees decides: a running server nobody activated, or an activation in no agent's list, is not "active" nor green.
  const running = powerItem(power({ state: 'active' }));
  assert.equal(running.description, 'running, not activated · 2 tools · demo');
  assert.notEqual(running.icon.id, 'pass-filled');
  const unseen = powerItem(power({ state: 'active', active: true, agentSessions: 0 }));
  assert.equal(unseen.description, "activated, in no agent's list · 2 tools · demo");
  assert.notEqual(unseen.icon.id, 'pass-filled');
  assert.match(unseen.tooltip, /In the tool list of 0 agent sessions/);

  assert.match(
    powerItem(power({ state: 'stopped', active: true, agentSessions: 1 })).description,
    /^activated \(idle\)/,
  );
  assert.equal(powerItem(power({ state: 'starting' })).icon.id, 'loading~spin');
  const crashed = powerItem(power({ state: 'crashed', lastError: 'crashed: exit 1' }));
  assert.equal(crashed.icon.id, 'error');
  assert.match(crashed.tooltip, /Last error: crashed: exit 1/);
  const broken = powerItem(power({ problems: ['GITHUB_TOKEN is not set'], tools: [] }));
  assert.match(broken.description, /^cannot start · 0 tools/);
  assert.equal(broken.icon.id, 'warning');
  assert.equal(broken.collapsible, false);
  const missing = powerItem(
    power({ missingCommand: 'my-mcp-server', problems: ["command 'my-mcp-server' was not found on PATH"], tools: [] }),
  );
  assert.match(missing.description, /^command not found · 0 tools/, 'not "crashed": it was never started');
  assert.equal(missing.icon.id, 'warning');
  assert.equal(
    powerItem(power({ source: { kind: 'vscode-mcp', file: '/w/.vscode/mcp.json', readOnly: true } })).description,
    'stopped · 2 tools · mcp.json',
  );
});

test('counts separate available, held and blocked tools: in the tree, on each tool and in the activation toast', () => {
  const held = power({
    state: 'active',
    active: true,
    agentSessions: 1,
    tools: [power().tools[0]],
    awaitingReview: ['read_graph'],
  });
  assert.deepEqual(toolCounts(held), { available: 0, held: 1, blocked: 0 });
  assert.equal(powerItem(held).description, 'active · 0 available · 1 held for review · demo');
  assert.doesNotMatch(powerItem(held).description, /1 tool\b/);
  assert.equal(
    activationMessage(held),
    "Grimoire: 'memory' is active; none of its tools is in the agent's list; 1 tool held for your review (read_graph).",
  );
  const heldItem = toolItem(held, held.tools[0]);
  assert.equal(heldItem.description, 'held for review · read-only');
  assert.equal(heldItem.contextValue, 'grimoire.tool.held');

  const mixed = power({
    state: 'active',
    active: true,
    agentSessions: 1,
    awaitingReview: ['read_graph'],
    blocked: ['delete_entities'],
    tools: [...power().tools, { name: 'search', description: '', annotations: {} }],
  });
  assert.deepEqual(toolCounts(mixed), { available: 1, held: 1, blocked: 1 });
  assert.equal(powerItem(mixed).description, 'active · 1 available · 1 held for review · 1 blocked · demo');
  assert.equal(
    activationMessage(mixed),
    "Grimoire: 'memory' is active; 1 of its 3 tools is in the agent's list; " +
      '1 tool held for your review (read_graph), 1 tool blocked (delete_entities).',
  );
  assert.equal(toolItem(mixed, mixed.tools[1]).contextValue, 'grimoire.tool.blocked');

  const plain = power({ state: 'active', active: true, agentSessions: 1 });
  assert.equal(powerItem(plain).description, 'active · 2 tools · demo');
  assert.equal(activationMessage(plain), "Grimoire: 'memory' is active; its 2 tools are in the agent's list.");
});

test('tool items carry their annotations', () => {
  const p = power();
  assert.deepEqual(annotationTags(p.tools[1]), ['destructive', 'idempotent']);
  const item = toolItem(p, p.tools[0]);
  assert.equal(item.id, 'tool:memory:read_graph');
  assert.equal(item.description, 'read-only');
  assert.equal(item.icon.id, 'eye');
  assert.equal(toolItem(p, p.tools[1]).icon.id, 'warning');
  assert.match(toolItem(p, { name: 'x', description: '', annotations: {} }).tooltip, /No annotations/);
});

test('a load problem shows its file, message and fix', () => {
  const item = issueItem({
    file: '/home/me/.grimoire/bad.spell.yaml',
    field: 'keywords',
    message: 'keywords has 1 entry',
    fix: 'list 3 to 20 words',
  });
  assert.equal(item.label, 'bad.spell.yaml');
  assert.equal(item.description, 'keywords has 1 entry');
  assert.match(item.tooltip, /\(keywords\)[\s\S]*Fix: list 3 to 20 words/);
  assert.equal(item.icon.id, 'error', 'a problem that keeps the file from loading is an error');
  assert.equal(
    issueItem({
      file: '/x.spell.yaml',
      field: 'server.command',
      severity: 'warning',
      message: 'command "x" was not found on PATH',
      fix: 'install it',
    }).icon.id,
    'warning',
  );
});

test('an unclosed [ reaches the Powers tree in plain words, as an error', () => {
  const text = 'name: broken\nversion: 1.0.0\ndescription: Notes.\nkeywords: [notes, todo\nserver:\n  command: node\n';
  const loaded = parseSpell(text, '/w/broken.spell.yaml', { env: { PATH: process.env.PATH } });
  assert.equal(loaded.issues.length, 1);
  const item = issueItem(loaded.issues[0]);
  assert.equal(item.description, 'YAML syntax error at line 4, column 11: this "[" is never closed');
  assert.equal(item.icon.id, 'error');
  assert.match(item.tooltip, /Fix: close it with "\]"/);
});

test('activate offers inactive powers first; deactivate only active ones', () => {
  const powers = [
    power({ name: 'zeta' }),
    power({ name: 'alpha', active: true, state: 'active' }),
    power({ name: 'beta' }),
  ];
  assert.deepEqual(
    powerPicks(powers, 'activate').map((pick) => pick.name),
    ['beta', 'zeta', 'alpha'],
  );
  assert.deepEqual(
    powerPicks(powers, 'deactivate').map((pick) => pick.name),
    ['alpha'],
  );
  assert.match(powerPicks([power({ problems: ['X is not set'] })], 'activate')[0].detail, /X is not set/);
});

test('resolve picks show confidence, band and which powers the tier offers', () => {
  const result: ResolveResult = {
    query: 'remember this',
    tier: 'multiple_matches',
    candidates: ['memory'],
    scores: [
      {
        name: 'memory',
        confidence: 0.62,
        score: 3.1,
        matchType: 'keyword',
        matchedTerms: ['remember'],
        matchedWords: ['remember'],
        band: 'multiple_matches',
        flags: [],
      },
      {
        name: 'filesystem',
        confidence: 0,
        score: 0,
        matchType: 'name',
        matchedTerms: [],
        matchedWords: [],
        band: 'not_found',
        flags: [],
      },
    ],
    thresholds: { activateThreshold: 0.85, multipleThreshold: 0.5, weakThreshold: 0.3 },
    elapsedMs: 0.2,
  };
  assert.equal(scorePick(result.scores[0], result.candidates).description, '62% · close match · offered');
  assert.equal(scorePick(result.scores[0], result.candidates).detail, 'your words "remember" match its keywords');
  assert.equal(scorePick(result.scores[1], result.candidates).detail, 'none of your words match it');
  assert.equal(resolveTitle(result), '"remember this": multiple matches: pick one');
  assert.equal(
    resolveTitle({ ...result, tier: 'activated' }),
    '"remember this": one clear match: pick it to activate it',
    'the palette ranks; it never claims an activation',
  );
});

test('the resolve picker never reads "activated" on a row, and says so when the clear match is already active', () => {
  const clear = {
    name: 'memory',
    confidence: 1,
    score: 5,
    matchType: 'description',
    matchedTerms: ['knowledg', 'graph'],
    matchedWords: ['knowledge', 'graph'],
    band: 'activated' as const,
    flags: [],
  };
  const result: ResolveResult = {
    query: 'knowledge graph',
    tier: 'activated',
    candidates: ['memory'],
    scores: [clear],
    thresholds: { activateThreshold: 0.9665, multipleThreshold: 0.5, weakThreshold: 0.3 },
    elapsedMs: 1,
  };
  const active = new Set(['memory']);
  assert.equal(scorePick(clear, result.candidates).description, '100% · clear match · offered');
  assert.equal(scorePick(clear, result.candidates, active).description, '100% · clear match · already active');
  assert.equal(resolveTitle(result, active), '"knowledge graph": one clear match, memory, already active');
  assert.doesNotMatch(resolveTitle(result, active), /not activated/);
  assert.equal(
    scorePick(clear, result.candidates).detail,
    'your words "knowledge", "graph" match its description',
    "the user's words, not the stems",
  );
});

test('the status bar shows active/total, health and problems', () => {
  assert.deepEqual(statusBarModel(ready), {
    text: '$(sparkle) Grimoire 1/3',
    tooltip: 'Grimoire gateway: ready at http://127.0.0.1:4000/mcp\n3 powers, 1 active\nClick to open the dashboard',
    error: false,
    warning: false,
  });
  const crashed = statusBarModel({ ...ready, crashedPowers: 1, issues: 2 });
  assert.equal(crashed.text, '$(warning) Grimoire 1/3');
  assert.equal(crashed.warning, true);
  assert.match(crashed.tooltip, /1 crashed[\s\S]*2 configuration problems/);
  const failed = statusBarModel({ ...ready, health: 'failed', message: 'port in use' });
  assert.equal(failed.error, true);
  assert.match(failed.tooltip, /port in use/);
  assert.equal(statusBarModel({ ...ready, health: 'starting' }).text, '$(loading~spin) Grimoire');
});

test('the endpoint is re-provided only when its address or token changes', () => {
  const tracker = new EndpointTracker();
  assert.equal(tracker.update({ url: 'http://127.0.0.1:4000/mcp', token: 'a', version: 1 }), true, 'the first one');
  assert.equal(
    tracker.update({ url: 'http://127.0.0.1:4000/mcp', token: 'a', version: 2 }),
    false,
    'served again at the same address with the same token',
  );
  assert.equal(
    tracker.update({ url: 'http://127.0.0.1:4000/mcp', token: 'a', version: 1 }),
    false,
    'a restarted process counts versions from 1 again',
  );
  assert.equal(tracker.update({ url: 'http://127.0.0.1:4001/mcp', token: 'a', version: 1 }), true, 'a new port');
  assert.equal(tracker.update({ url: 'http://127.0.0.1:4001/mcp', token: 'b', version: 1 }), true, 'a new token');
  assert.deepEqual(authorizationHeaders(tracker.endpoint!), { Authorization: 'Bearer b' });
});

test('timings record each milestone once, in ms after activation', () => {
  const timings = new Timings(1000);
  assert.equal(timings.mark('activated', 1012.34), true);
  assert.equal(timings.mark('activated', 2000), false);
  timings.mark('gatewayReady', 1800);
  assert.deepEqual(timings.snapshot(), { activatedMs: 12.3, gatewayReadyMs: 800 });
  assert.match(
    timings.describe(),
    /^after activation: activate\(\) 12\.3 ms.*initialized \? ms.*ready \(MCP endpoint serving\) 800 ms/,
  );
  timings.setLoadStart(900);
  assert.equal(timings.snapshot().loadMs, 100);
  assert.match(timings.describe(), /^code loaded in 100 ms; after activation/);
});

test('an empty picker says why: starting, failed, no powers, nothing active, all active', () => {
  const ready: GatewayStatus = {
    health: 'ready',
    endpointVersion: 1,
    powers: 0,
    activePowers: 0,
    crashedPowers: 0,
    issues: 0,
  };
  const idle = { name: 'memory', active: false } as PowerInfo;
  assert.match(nothingToPickText({ ...ready, health: 'starting' }, [], 'activate'), /still starting/);
  assert.match(
    nothingToPickText({ ...ready, health: 'failed', message: 'port in use' }, [], 'activate'),
    /did not start \(port in use\)/,
  );
  assert.match(nothingToPickText(ready, [], 'open'), /no powers yet.*demo powers/);
  assert.equal(nothingToPickText(ready, [idle], 'deactivate'), 'no power is active.');
  assert.equal(nothingToPickText(ready, [{ ...idle, active: true }], 'activate'), 'every power is active already.');
});
