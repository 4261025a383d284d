import { test } from 'node:test';
import assert from 'node:assert/strict';
import { powerItem } from '../../client/tree-items.js';
import { eraOf } from '../../protocol/protocol-era.js';
import type { PowerInfo } from '../../protocol/records.js';

const power: PowerInfo = {
  name: 'notes',
  version: '1.0.0',
  description: 'Notes.',
  keywords: ['notes'],
  source: { kind: 'spell', file: '/home/u/.grimoire/notes.spell.yaml', readOnly: false },
  serverId: 'server-of-notes',
  state: 'active',
  active: false,
  agentSessions: 0,
  tools: [],
  problems: [],
};

test('the era of a revision: 2026-07-28 and later are modern, earlier ones legacy, none unknown', () => {
  assert.deepEqual(['2026-07-28', '2027-01-01', '2025-11-25', '2024-11-05', undefined].map(eraOf), [
    'modern',
    'modern',
    'legacy',
    'legacy',
    '?',
  ]);
});

test("the Powers tree's tooltip names the revision the power's server spoke, with its era, once it ran", () => {
  assert.match(
    powerItem({ ...power, protocolVersion: '2026-07-28' }).tooltip,
    /^MCP revision: 2026-07-28 \(modern\)$/m,
  );
  assert.match(
    powerItem({ ...power, protocolVersion: '2025-11-25' }).tooltip,
    /^MCP revision: 2025-11-25 \(legacy\)$/m,
  );
  assert.doesNotMatch(powerItem(power).tooltip, /MCP revision/, 'never ran: nothing to say');
});
