import { test } from 'node:test';
import assert from 'node:assert/strict';
import { powerItem } from '../../client/tree-items.js';
import type { PowerInfo } from '../../protocol/records.js';

const waiting: PowerInfo = {
  name: 'helper',
  version: '1.0.0',
  description: 'Helps.',
  keywords: ['help', 'notes', 'graph'],
  source: { kind: 'spell', file: '/work/project/.grimoire/helper.spell.yaml', readOnly: false },
  serverId: 'server-of-helper',
  state: 'stopped',
  active: false,
  agentSessions: 0,
  tools: [],
  problems: [],
  awaitingLaunch: { origin: 'workspace', command: 'node /work/project/helper.mjs', hash: 'h1' },
};

test('the Powers tree says a power waits for approval, and its tooltip shows the command it would run', () => {
  const item = powerItem(waiting);
  assert.match(item.description, /^waiting for approval · /);
  assert.match(item.tooltip, /Waiting for your approval to run: node \/work\/project\/helper\.mjs/);
  const approved = powerItem({ ...waiting, awaitingLaunch: undefined });
  assert.doesNotMatch(approved.description, /waiting for approval/);
  assert.doesNotMatch(approved.tooltip, /Waiting for your approval/);
});
