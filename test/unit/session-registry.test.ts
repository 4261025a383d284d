import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SessionLimitError, SessionRegistry } from '../../server/gateway/sessions/session-registry.js';

test('sessions start with the window powers, count users per power, respect the cap and close when idle', async () => {
  const clock = { now: 0 };
  const registry = new SessionRegistry(
    () => ({ maxConcurrent: 2, maxPerClient: 2, idleMinutes: 1 }),
    () => clock.now,
  );
  const closed: string[] = [];
  const handle = (id: string) => ({
    toolsChanged: () => undefined,
    log: () => undefined,
    close: () => void closed.push(id),
  });
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

test(
  'fair sessions: a client at its own limit gives up its least recently used session; ' +
    'a full gateway takes one from the client holding the most; else the refusal says whose',
  async () => {
    const clock = { now: 0 };
    const registry = new SessionRegistry(
      () => ({ maxConcurrent: 5, maxPerClient: 3, idleMinutes: 60 }),
      () => clock.now,
    );
    const closed: string[] = [];
    const told: string[] = [];
    const handle = (id: string) => ({
      toolsChanged: () => undefined,
      log: (m: string) => void told.push(`${id}: ${m}`),
      close: () => void closed.push(id),
    });
    const open = async (id: string, client: string) => {
      clock.now += 1;
      const made = await registry.makeRoom(client);
      registry.open(id, handle(id), true, client);
      return made;
    };
    try {
      for (const id of ['m1', 'm2', 'm3']) assert.deepEqual(await open(id, 'mallory'), []);
      clock.now += 1;
      registry.touch('m1');
      assert.deepEqual(
        await open('m4', 'mallory'),
        ['m2'],
        "mallory's least recently used session makes room for her fourth",
      );
      assert.match(told.join('\n'), /m2: .*user 'mallory' is at its limit of 3 sessions \(sessions\.maxPerClient\)/);
      assert.deepEqual(await open('o1', ''), [], 'the owner is not locked out');
      assert.deepEqual(await open('b1', 'bob'), [], 'nor another user');
      assert.deepEqual(
        await open('b2', 'bob'),
        ['m3'],
        'a full gateway: the client holding the most (mallory, 3) gives one up to bob (1)',
      );
      assert.deepEqual(closed, ['m2', 'm3']);
      await assert.rejects(
        open('o2', ''),
        (error: Error) => {
          assert.ok(error instanceof SessionLimitError);
          assert.match(
            error.message,
            /already serves 5 MCP sessions, its limit for all clients together \(sessions\.maxConcurrent\)/,
          );
          assert.match(error.message, /\(you hold 1\)/, "the owner's own count");
          assert.doesNotMatch(error.message, /mallory|bob/, 'no other client is named');
          return true;
        },
        'shares of 2, 1 and 2: nobody holds more than the owner would',
      );
    } finally {
      registry.dispose();
    }
  },
);
