import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SessionLimitError, SessionRegistry } from '../../server/gateway/session-registry.js';

test('sessions start with the window powers, count users per power, respect the cap and close when idle', async () => {
  const clock = { now: 0 };
  const registry = new SessionRegistry(() => ({ maxConcurrent: 2, idleMinutes: 1 }), () => clock.now);
  const closed: string[] = [];
  const handle = (id: string) => ({ toolsChanged: () => undefined, log: () => undefined, close: () => void closed.push(id) });
  try {
    registry.window.active.add('memory');
    const a = registry.open('a', handle('a'), true);
    assert.deepEqual([...a.active], ['memory'], 'a new session starts with the window powers');
    registry.open('b', handle('b'), true);
    assert.throws(() => registry.open('c', handle('c'), true), SessionLimitError);
    registry.open('stdio', handle('stdio'), false);
    assert.equal(registry.users('memory'), 4, 'the window and three sessions');
    a.active.add('files');
    assert.equal(registry.users('files'), 1);
    clock.now = 30_000;
    registry.touch('b');
    clock.now = 61_000;
    assert.deepEqual(await registry.closeIdle(), ['a'], 'only the session idle past the timeout');
    assert.deepEqual(closed, ['a']);
    assert.equal(registry.users('files'), 0, 'its state is freed');
    assert.doesNotThrow(() => registry.open('c', handle('c'), true), 'its place is free');
  } finally {
    registry.dispose();
  }
});
