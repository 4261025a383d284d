import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { test } from 'node:test';
import { Cancellation } from '../../server/util/cancellation.js';

test('a cancellation calls each listener once with the reason, and not one that stopped listening or came late', () => {
  const cancellation = new Cancellation();
  const heard: unknown[] = [];
  cancellation.onAbort((reason) => heard.push(['first', reason]));
  const stop = cancellation.onAbort((reason) => heard.push(['stopped', reason]));
  stop();
  stop();
  assert.equal(cancellation.aborted, false);
  cancellation.abort('user gave up');
  cancellation.abort('again');
  cancellation.onAbort((reason) => heard.push(['late', reason]));
  assert.deepEqual(heard, [['first', 'user gave up']]);
  assert.deepEqual([cancellation.aborted, cancellation.reason], [true, 'user gave up']);
});

test('without a reason it is the AbortError an AbortController gives', () => {
  const cancellation = new Cancellation();
  cancellation.abort();
  const controller = new AbortController();
  controller.abort();
  assert.ok(cancellation.reason instanceof DOMException);
  assert.equal((cancellation.reason as DOMException).name, (controller.signal.reason as DOMException).name);
  assert.equal((cancellation.reason as DOMException).message, (controller.signal.reason as DOMException).message);
});

test('its signal is made on first use and aborts with it, before or after', () => {
  const early = new Cancellation();
  const signal = early.signal;
  assert.equal(early.signal, signal, 'one signal');
  let fired = 0;
  signal.addEventListener('abort', () => (fired += 1));
  early.abort('stop');
  assert.deepEqual([signal.aborted, signal.reason, fired], [true, 'stop', 1]);

  const late = new Cancellation();
  late.abort('stopped before anyone asked');
  assert.deepEqual([late.signal.aborted, late.signal.reason], [true, 'stopped before anyone asked']);
});

test('following a signal: aborted with it, now or later; its signal is that signal', () => {
  assert.equal(Cancellation.following(undefined), undefined);
  const controller = new AbortController();
  const following = Cancellation.following(controller.signal)!;
  const heard: unknown[] = [];
  following.onAbort((reason) => heard.push(reason));
  assert.equal(following.signal, controller.signal);
  assert.equal(following.aborted, false);
  controller.abort('from the SDK');
  assert.deepEqual([following.aborted, following.reason, heard], [true, 'from the SDK', ['from the SDK']]);
  const already = Cancellation.following(AbortSignal.abort('done'))!;
  assert.deepEqual([already.aborted, already.reason], [true, 'done']);
});

test('following a signal adds no listener to it until something listens, then one for all listeners', () => {
  const controller = new AbortController();
  const following = Cancellation.following(controller.signal)!;
  assert.equal(
    getEventListeners(controller.signal, 'abort').length,
    0,
    'a call nobody listens to costs the signal nothing',
  );
  const heard: unknown[] = [];
  following.onAbort((reason) => heard.push(['first', reason]));
  following.onAbort((reason) => heard.push(['second', reason]));
  assert.equal(getEventListeners(controller.signal, 'abort').length, 1);
  controller.abort('gone');
  assert.deepEqual(heard, [
    ['first', 'gone'],
    ['second', 'gone'],
  ]);
  assert.deepEqual([following.aborted, following.reason], [true, 'gone']);
});

test('a followed cancellation aborted on its own keeps its own reason when the signal aborts later', () => {
  const controller = new AbortController();
  const following = Cancellation.following(controller.signal)!;
  following.abort('the gateway gave up');
  controller.abort('the client gave up');
  assert.deepEqual([following.aborted, following.reason], [true, 'the gateway gave up']);
});
