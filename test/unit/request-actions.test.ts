import { test } from 'node:test';
import assert from 'node:assert/strict';
import { asksForChange, asksToRead, requestActionTags } from '../../server/resolve/request-actions.js';

test('a noun that only stems like a verb is no action: "list my settings" and "show the logs" ask to read, nothing to set or write', () => {
  for (const query of ['list my settings', 'show the logs', 'what are the logs']) {
    assert.equal(asksForChange(query), false, query);
    assert.equal(asksToRead(query), true, query);
    assert.ok(!requestActionTags(query).some((tag) => tag === '!update' || tag === '!write'), `${query}: ${requestActionTags(query).join(', ')}`);
  }
});

test('a verb counts as written and in its participles: "stored" and "creating" ask for a change', () => {
  assert.deepEqual(requestActionTags('save these notes'), ['!write']);
  assert.deepEqual(requestActionTags('I stored the notes'), requestActionTags('store the notes'));
  assert.equal(asksForChange('creating a new branch'), true);
});
