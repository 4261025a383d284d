import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GatewayStatus, PowerInfo, ResolveResult } from '../../protocol/records.js';
import { healthText, powerRows, scoreRows, tierSummary } from '../../webview/view-model.js';

function power(name: string, overrides: Partial<PowerInfo> = {}): PowerInfo {
  return {
    name,
    version: '1.0.0',
    description: `${name} things`,
    keywords: [],
    source: { kind: 'spell', file: `/s/${name}.spell.yaml`, readOnly: false },
    serverId: `server-of-${name}`,
    state: 'stopped',
    active: false,
    agentSessions: 0,
    tools: [{ name: 't', description: '', annotations: {} }],
    problems: [],
    ...overrides,
  };
}

const result: ResolveResult = {
  query: 'read a file',
  tier: 'activated',
  candidates: ['filesystem'],
  scores: [
    {
      name: 'filesystem',
      confidence: 0.914,
      score: 4,
      matchType: 'keyword',
      matchedTerms: ['read', 'file'],
      matchedWords: ['read', 'file'],
      band: 'activated',
      flags: [],
    },
    {
      name: 'memory',
      confidence: 0.31,
      score: 1,
      matchType: 'description',
      matchedTerms: ['read'],
      matchedWords: ['read'],
      band: 'weak_matches',
      flags: [],
    },
    {
      name: 'everything',
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
  elapsedMs: 0.42,
};

test('power rows: state text, tone, and the action the button takes', () => {
  const rows = powerRows([
    power('a', { state: 'active', active: true, agentSessions: 1 }),
    power('b', { state: 'crashed' }),
    power('c', { problems: ['X is not set'] }),
    power('d', { active: true, agentSessions: 1 }),
    power('e', { state: 'starting', source: { kind: 'claude-desktop', file: '/c.json', readOnly: true } }),
    power('f', { state: 'active' }),
    power('g', { state: 'active', active: true }),
  ]);
  assert.deepEqual(
    rows.map((row) => [row.name, row.state, row.tone, row.action]),
    [
      ['a', 'active', 'ok', 'deactivate'],
      ['b', 'crashed', 'error', 'activate'],
      ['c', 'cannot start', 'warn', 'activate'],
      ['d', 'activated (idle)', 'idle', 'deactivate'],
      ['e', 'starting', 'busy', 'activate'],
      ['f', 'running, not activated', 'idle', 'activate'],
      ['g', "activated, in no agent's list", 'idle', 'deactivate'],
    ],
  );
  assert.equal(rows[4].source, 'Claude Desktop');
});

test('the dashboard counts available tools and names the withheld ones apart', () => {
  const tools = ['a', 'b', 'c'].map((name) => ({ name, description: '', annotations: {} }));
  const [held, plain] = powerRows([
    power('x', { tools, awaitingReview: ['a'], blocked: ['b'] }),
    power('y', { tools }),
  ]);
  assert.deepEqual([held.tools, held.toolsWithheld], [1, '1 held for review · 1 blocked']);
  assert.deepEqual([plain.tools, plain.toolsWithheld], [3, '']);
});

test('score rows: every power with its percentage, band and whether the tier offers it', () => {
  const rows = scoreRows(result, [power('memory', { active: true })]);
  assert.deepEqual(
    rows.map((row) => [row.name, row.percent, row.confidenceText, row.bandText, row.offered, row.active]),
    [
      ['filesystem', 91, '0.91', 'Clear match', true, false],
      ['memory', 31, '0.31', 'Weak match', false, true],
      ['everything', 0, '0.00', 'No match', false, false],
    ],
  );
  assert.equal(rows[0].matched, 'keyword: read, file');
  assert.equal(rows[2].matched, '');
});

test('the tier summary names the tier, the thresholds and the time', () => {
  const summary = tierSummary(result);
  assert.equal(summary.label, 'Activated');
  assert.match(summary.text, /activate ≥ 0\.85, multiple ≥ 0\.5, weak ≥ 0\.3; ranked in 0\.42 ms/);
  assert.equal(tierSummary({ ...result, tier: 'not_found' }).label, 'Not found');
});

test('health: ready with counts, failed with the reason', () => {
  const status: GatewayStatus = {
    health: 'ready',
    url: 'http://127.0.0.1:9/mcp',
    endpointVersion: 1,
    powers: 3,
    activePowers: 1,
    crashedPowers: 1,
    issues: 1,
  };
  assert.deepEqual(healthText(status), {
    label: 'Ready',
    tone: 'ok',
    detail: 'http://127.0.0.1:9/mcp · 3 powers, 1 active, 1 crashed · 1 configuration problem(s)',
  });
  assert.deepEqual(healthText({ ...status, health: 'failed', message: 'boom' }), {
    label: 'Failed',
    tone: 'error',
    detail: 'boom',
  });
  assert.equal(healthText({ ...status, health: 'restarting' }).tone, 'busy');
});
