import { test } from 'node:test';
import assert from 'node:assert/strict';
import { callWith, effectiveAnnotations, inferAnnotations } from '../../server/calls/annotations.js';
import { validateIntent } from '../../server/calls/intent-validation.js';
import { variantOf } from '../../server/calls/intent.js';

const server = (annotations: object) => effectiveAnnotations({ name: 'x', annotations }, undefined, true);

test('inference from names, then descriptions; nothing when neither says', () => {
  assert.deepEqual(inferAnnotations('delete_repo', ''), { readOnlyHint: false, destructiveHint: true });
  assert.deepEqual(inferAnnotations('createIssue', ''), { readOnlyHint: false, destructiveHint: false });
  assert.deepEqual(inferAnnotations('list-files', ''), { readOnlyHint: true });
  assert.deepEqual(inferAnnotations('frobnicate', 'Removes stale entries'), { readOnlyHint: false, destructiveHint: true });
  assert.equal(inferAnnotations('frobnicate', 'Twiddle the knobs'), undefined);
});

test('precedence: spell over server over inferred; inference can be switched off', () => {
  const tool = { name: 'delete_x', annotations: { readOnlyHint: true } };
  assert.equal(effectiveAnnotations(tool, undefined, true).source, 'server');
  assert.equal(effectiveAnnotations(tool, { destructiveHint: true }, true).source, 'spell');
  assert.equal(effectiveAnnotations(tool, { destructiveHint: true }, true).destructiveHint, true);
  const bare = { name: 'delete_x' };
  assert.deepEqual(effectiveAnnotations(bare, undefined, true), { readOnlyHint: false, destructiveHint: true, source: 'inferred', inferred: true });
  assert.deepEqual(effectiveAnnotations(bare, undefined, false), { source: 'none' });
});

test('annotations are decided once per tool object and inputs; another override, setting or listing decides again', () => {
  const tool = { name: 'delete_file', description: 'Deletes a file' };
  const first = effectiveAnnotations(tool, undefined, true);
  assert.equal(effectiveAnnotations(tool, undefined, true), first, 'the same decision object');
  assert.ok(Object.isFrozen(first), 'shared, so it cannot be changed by one caller');
  assert.deepEqual(effectiveAnnotations(tool, { readOnlyHint: true }, true), { readOnlyHint: true, source: 'spell' });
  assert.deepEqual(effectiveAnnotations(tool, undefined, false), { source: 'none' });
  assert.deepEqual(effectiveAnnotations({ ...tool, annotations: { readOnlyHint: true } }, undefined, true), { readOnlyHint: true, source: 'server' }, 'a new listing');
  assert.deepEqual(effectiveAnnotations(tool, undefined, true), { readOnlyHint: false, destructiveHint: true, source: 'inferred', inferred: true });
});

test('call_with follows destructive, then read-only, else write', () => {
  assert.equal(callWith(server({ destructiveHint: true })), 'call_tool_destructive');
  assert.equal(callWith(server({ readOnlyHint: true })), 'call_tool_read');
  assert.equal(callWith(server({ readOnlyHint: false })), 'call_tool_write');
  assert.equal(callWith({ source: 'none' }), 'call_tool_write');
});

test('the matrix, with strict off turning annotation rejects into warnings but never a mismatch', () => {
  const read = (annotations: object, strict = true) => validateIntent('read', { operation_type: 'read' }, 'p:t', server(annotations), strict).decision;
  assert.equal(read({ destructiveHint: true }), 'rejected');
  assert.equal(read({ readOnlyHint: true }), 'allowed');
  assert.equal(read({ readOnlyHint: false }), 'rejected');
  assert.equal(read({ destructiveHint: true }, false), 'warned');
  assert.equal(validateIntent('read', { operation_type: 'write' }, 'p:t', server({}), false).decision, 'rejected');
  assert.equal(validateIntent('write', undefined, 'p:t', server({}), false).decision, 'rejected');
  assert.equal(validateIntent('write', { operation_type: 'write' }, 'p:t', server({ readOnlyHint: true }), true).decision, 'warned');
  assert.equal(validateIntent('destructive', { operation_type: 'destructive' }, 'p:t', server({ readOnlyHint: true }), true).decision, 'allowed');
  assert.match(validateIntent('read', { operation_type: 'read' }, 'github:delete_repo', server({ destructiveHint: true }), true).message!, /Tool 'github:delete_repo' is marked destructive by its server; use call_tool_destructive/);
});

test('variant names', () => {
  assert.equal(variantOf('call_tool_read'), 'read');
  assert.equal(variantOf('call_tool_destructive'), 'destructive');
  assert.equal(variantOf('call_tool'), undefined);
});

test('strict read: only a declared read-only reaches call_tool_read; inferred or missing is refused with how to proceed', () => {
  const read = { operation_type: 'read' as const };
  const inferredRead = effectiveAnnotations({ name: 'query', description: 'Execute a raw SQL query' }, undefined, true);
  assert.equal(inferredRead.source, 'inferred');
  assert.equal(inferredRead.readOnlyHint, true, 'the name suggests a read');
  const refused = validateIntent('read', read, 'sqlite:query', inferredRead, true);
  assert.equal(refused.decision, 'rejected');
  assert.match(refused.message!, /^'sqlite:query' does not declare itself read-only; call it with call_tool_write, or mark it read-only in a spell override/);
  assert.equal(callWith(inferredRead), 'call_tool_write', 'inference is advice: call_with stays write');
  assert.equal(validateIntent('write', { operation_type: 'write' }, 'sqlite:query', inferredRead, true).decision, 'allowed');
  const none = effectiveAnnotations({ name: 'frobnicate' }, undefined, true);
  assert.equal(validateIntent('read', read, 'x:frobnicate', none, true).decision, 'rejected');
  assert.equal(validateIntent('read', read, 'x:frobnicate', none, false).decision, 'warned', 'non-strict keeps the old behaviour, with a warning');
  assert.equal(validateIntent('read', read, 'x:peek', server({ readOnlyHint: true }), true).decision, 'allowed');
  const spell = effectiveAnnotations({ name: 'query' }, { readOnlyHint: true }, true);
  assert.equal(validateIntent('read', read, 'sqlite:query', spell, true).decision, 'allowed', 'a spell override declares it');
  assert.equal(callWith(spell), 'call_tool_read');
  assert.equal(callWith(effectiveAnnotations({ name: 'purge' }, undefined, true)), 'call_tool_destructive', 'inferred destructive asks for more care');
});
