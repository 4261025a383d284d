import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RestartPolicy } from '../../server/upstream/restart-policy.js';

test('after a failure the gate stays shut for the backoff, which doubles, up to the attempt cap', () => {
  let now = 0;
  const policy = new RestartPolicy({ maxAttempts: 3, baseDelayMs: 1000 }, () => now);
  assert.deepEqual(policy.gate(), { open: true });
  assert.equal(policy.failed(), 1000);
  assert.deepEqual(policy.gate(), { open: false, gaveUp: false, retryInMs: 1000, attempt: 1, maxAttempts: 3 });
  now = 999;
  assert.equal(policy.gate().open, false, 'a call just before the time does not start it');
  now = 1000;
  assert.equal(policy.gate().open, true);
  assert.equal(policy.failed(), 2000);
  now += 2000;
  assert.equal(policy.failed(), 4000);
  now += 4000;
  assert.equal(policy.failed(), undefined, 'the fourth failure is past the cap');
  now += 60_000;
  assert.deepEqual(policy.gate(), { open: false, gaveUp: true, attempts: 3 });
});

test('an explicit activation lifts a give-up but not a backoff in progress; a healthy run clears everything', () => {
  let now = 0;
  const policy = new RestartPolicy({ maxAttempts: 1, baseDelayMs: 500 }, () => now);
  policy.failed();
  policy.liftGiveUp();
  assert.equal(policy.gate().open, false, 'still backing off');
  now = 500;
  assert.equal(policy.failed(), undefined);
  policy.liftGiveUp();
  assert.equal(policy.gate().open, true);
  assert.equal(policy.failed(), 500, 'a new round starts at the base delay');
  policy.recovered();
  assert.equal(policy.gate().open, true);
});
