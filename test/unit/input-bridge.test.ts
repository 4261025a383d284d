import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputBridge } from '../../server/gateway/sessions/input-bridge.js';

/** The bridge between a power's question and a modern client's retry, with a power played by a promise. */
const result = (text: string) => ({ content: [{ type: 'text' as const, text }] });
const signal = () => new AbortController().signal;

function askingCall(bridge: InputBridge, session: string) {
  const peer = bridge.peer(session);
  return bridge.start(
    session,
    async () => {
      const answer = (await peer.elicit({
        message: 'name?',
        requestedSchema: { type: 'object', properties: {} },
      } as never)) as { content?: { name?: string } };
      return result(`hello ${answer.content?.name}`);
    },
    () => undefined,
    signal(),
  );
}

test("a retry of its own session answers the power, and the call ends with the power's result", async () => {
  const bridge = new InputBridge(5_000);
  const first = await askingCall(bridge, 'a');
  assert.ok('requestState' in first);
  assert.deepEqual(
    Object.values(first.inputRequests).map((r) => r.method),
    ['elicitation/create'],
  );
  const key = Object.keys(first.inputRequests)[0];
  const done = await bridge.resume(
    'a',
    first.requestState,
    { [key]: { action: 'accept', content: { name: 'Ada' } } },
    signal(),
  );
  assert.deepEqual(done, { result: result('hello Ada') });
  assert.equal(bridge.knows(first.requestState), false, 'a handle answers once');
});

test("another session's retry with the handle is refused and leaves the call waiting for its own", async () => {
  const bridge = new InputBridge(5_000);
  const first = await askingCall(bridge, 'a');
  assert.ok('requestState' in first);
  assert.throws(() => bridge.resume('b', first.requestState, {}, signal()), /names no call of this session/);
  assert.equal(bridge.knows(first.requestState), true);
  const key = Object.keys(first.inputRequests)[0];
  assert.deepEqual(
    await bridge.resume('a', first.requestState, { [key]: { action: 'accept', content: { name: 'Bo' } } }, signal()),
    { result: result('hello Bo') },
  );
});

test("when no retry comes within the wait, the power's request is refused and the handle dropped", async () => {
  const bridge = new InputBridge(50);
  const peer = bridge.peer('a');
  let refusal: unknown;
  const first = await bridge.start(
    'a',
    async () => {
      try {
        await peer.elicit({ message: 'name?' } as never);
        return result('answered');
      } catch (error) {
        refusal = error;
        return result('refused');
      }
    },
    () => undefined,
    signal(),
  );
  assert.ok('requestState' in first);
  await new Promise((resolve) => setTimeout(resolve, 120));
  assert.match(String((refusal as Error)?.message), /did not retry within/);
  assert.equal(bridge.knows(first.requestState), false);
});

test('a question while no call of the session runs, or while two do, goes to none', async () => {
  const bridge = new InputBridge(5_000);
  await assert.rejects(bridge.peer('idle').elicit({ message: 'x' } as never), /No call of the session is running/);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const run = () =>
    bridge.start(
      'two',
      async () => (await held, result('ok')),
      () => undefined,
      signal(),
    );
  const calls = [run(), run()];
  await assert.rejects(bridge.peer('two').elicit({ message: 'x' } as never), /2 calls of the session are running/);
  release();
  await Promise.all(calls);
});

test('a question the power still has waiting when its call ends is refused: the call already ended', async () => {
  const bridge = new InputBridge(5_000);
  const peer = bridge.peer('a');
  let second: Promise<unknown> | undefined;
  const first = await bridge.start(
    'a',
    async () => {
      void peer.elicit({ message: 'first?' } as never).catch(() => undefined);
      // Asked while the first waits for the client's retry: it waits its turn, then the call ends.
      second = peer.listRoots();
      await new Promise((resolve) => setTimeout(resolve, 10));
      return result('done without them');
    },
    () => undefined,
    signal(),
  );
  assert.ok('requestState' in first);
  await assert.rejects(second!, /The call already ended/);
});
