import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openWalkthroughOnce, WALKTHROUGH_SHOWN_KEY, type FirstRunState } from '../../client/first-run.js';

function memento(): FirstRunState & { values: Map<string, unknown> } {
  const values = new Map<string, unknown>();
  return {
    values,
    get: <T>(key: string) => values.get(key) as T | undefined,
    update: async (key, value) => void values.set(key, value),
  };
}

test('the walkthrough opens on the first activation only, remembered across windows and restarts', async () => {
  const state = memento();
  let opened = 0;
  const open = async () => void opened++;
  assert.equal(await openWalkthroughOnce(state, open), true);
  assert.equal(await openWalkthroughOnce(state, open), false);
  assert.equal(opened, 1);
  assert.equal(state.values.get(WALKTHROUGH_SHOWN_KEY), true);
});

test('a walkthrough that fails to open is not tried again at every start', async () => {
  const state = memento();
  await assert.rejects(
    openWalkthroughOnce(state, async () => Promise.reject(new Error('no such walkthrough'))),
    /no such walkthrough/,
  );
  let opened = 0;
  assert.equal(await openWalkthroughOnce(state, async () => void opened++), false);
  assert.equal(opened, 0);
});
