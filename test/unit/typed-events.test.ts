/**
 * The gateway's, the upstream manager's and a connection's events are typed: the `@ts-expect-error`
 * lines below fail the build (`tsc -b`) the day a listener of the wrong shape or an event no one
 * emits would compile again. The test itself checks the manager re-emits its connections' events.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Gateway } from '../../server/gateway/gateway.js';
import type { PowerDefinition } from '../../server/powers/types.js';
import type { PowerStateChange } from '../../protocol/records.js';
import type { PowerConnection } from '../../server/upstream/connection.js';
import { UpstreamManager } from '../../server/upstream/manager.js';

export function listenersAreCompileChecked(
  gateway: Gateway,
  manager: UpstreamManager,
  connection: PowerConnection,
): void {
  gateway.on('powerState', (change: PowerStateChange) => void change.power);
  gateway.on('toolsQuarantined', (reviews) => void reviews.map((r) => r.tool));
  // @ts-expect-error an event the gateway never emits
  gateway.on('toolChanged', () => undefined);
  // @ts-expect-error powerState carries a PowerStateChange, not a power name
  gateway.on('powerState', (power: number) => void power);
  manager.on('toolsChanged', (power: string) => void power);
  // @ts-expect-error toolsChanged carries the power's name
  manager.on('toolsChanged', (change: PowerStateChange) => void change);
  // @ts-expect-error the manager has no 'powerState' event (the gateway has)
  manager.on('powerState', () => undefined);
  connection.on('state', (change) => void change.state);
  // @ts-expect-error a connection's toolsChanged carries nothing
  connection.emit('toolsChanged', 'fs');
}

const power: PowerDefinition = {
  name: 'quiet',
  version: '1',
  description: '',
  keywords: [],
  steering: '',
  derivedFromTools: false,
  problems: [],
  serverHash: '',
  definitionHash: '',
  server: { transport: 'stdio', command: process.execPath, args: ['-e', '0'], env: {} },
  source: { kind: 'spell', file: '/x/quiet.spell.yaml', readOnly: false },
};

test('the upstream manager re-emits a connection state change as is and its tool-list change with the power name', async () => {
  const manager = new UpstreamManager({
    callTimeoutMs: 1000,
    startTimeoutMs: 1000,
    restart: { maxAttempts: 0, baseDelayMs: 10 },
    idle: { mode: 'never', minutes: 0, turns: 0 },
    maxMessageBytes: 1024,
  });
  try {
    const states: PowerStateChange[] = [];
    const toolChanges: string[] = [];
    manager.on('state', (change) => states.push(change));
    manager.on('toolsChanged', (name) => toolChanges.push(name));
    const connection = manager.connection(power);
    connection.emit('state', { power: 'quiet', state: 'crashed', detail: 'exit 1' });
    connection.emit('toolsChanged');
    assert.deepEqual(states, [{ power: 'quiet', state: 'crashed', detail: 'exit 1' }]);
    assert.deepEqual(toolChanges, ['quiet']);
  } finally {
    await manager.shutdown();
  }
});
