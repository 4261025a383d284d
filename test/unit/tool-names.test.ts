import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exposedToolName, splitQualifiedName, TOOL_NAME_PATTERN } from '../../server/gateway/tool-names.js';

test('short valid names are <power>__<tool>', () => {
  assert.equal(exposedToolName('filesystem', 'read_text_file'), 'filesystem__read_text_file');
  assert.equal(exposedToolName('everything', 'get-env'), 'everything__get-env');
});

test('invalid characters are replaced and the result is unique and valid', () => {
  const a = exposedToolName('web', 'search.v2');
  const b = exposedToolName('web', 'search_v2');
  assert.match(a, TOOL_NAME_PATTERN);
  assert.notEqual(a, b);
});

test('long names are shortened to 64 with a hash; different long names differ', () => {
  const long = 'x'.repeat(80);
  const a = exposedToolName('a-very-long-power-name', `${long}_one`);
  const b = exposedToolName('a-very-long-power-name', `${long}_two`);
  assert.equal(a.length, 64);
  assert.match(a, TOOL_NAME_PATTERN);
  assert.notEqual(a, b);
});

test('qualified names split on ":" or "__"', () => {
  assert.deepEqual(splitQualifiedName('github:delete_repo'), { power: 'github', tool: 'delete_repo' });
  assert.deepEqual(splitQualifiedName('github__delete_repo'), { power: 'github', tool: 'delete_repo' });
  assert.equal(splitQualifiedName('delete_repo'), undefined);
});
