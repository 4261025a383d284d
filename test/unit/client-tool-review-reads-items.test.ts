import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReadCandidateInfo } from '../../protocol/records.js';
import { awaitingWord, confirmPrompt, offerMessage, pickItem } from '../../client/tool-review-reads-items.js';

const read = (tool: string, status: ReadCandidateInfo['status'] = 'new'): ReadCandidateInfo => ({
  power: 'time',
  tool,
  description: 'Get the current date and time.\nMore.',
  status,
});

test('the offer names the tools and says what stays as it is until the user confirms', () => {
  assert.match(
    offerMessage([read('current_time')]),
    new RegExp(
      /^Grimoire believes a tool only reads \(time:current_time\), but its server does not say so: /.source +
        /until you confirm it, the agent calls it as a write/.source,
    ),
  );
  const many = ['a', 'b', 'c', 'd', 'e', 'f'].map((t) => read(t));
  assert.match(offerMessage(many), /6 tools only read \(time:a, time:b, time:c, time:d and 2 more\)/);
  assert.deepEqual(
    awaitingWord([read('a'), read('b', 'confirmed'), read('c', 'changed')]).map((r) => r.tool),
    ['a', 'c'],
  );
});

test('pick rows start picked unless confirmed; the confirmation says what the user grants', () => {
  assert.deepEqual(pickItem(read('current_time')), {
    label: 'time:current_time',
    description: 'not confirmed',
    detail: 'Get the current date and time.',
    picked: true,
  });
  assert.equal(pickItem(read('x', 'confirmed')).picked, false);
  assert.equal(pickItem(read('x', 'changed')).description, 'changed since you confirmed it');
  const prompt = confirmPrompt([read('current_time')]);
  assert.equal(prompt.message, 'Mark time:current_time as read-only?');
  assert.match(prompt.detail, /auto-approves reads will run it without asking/);
});
