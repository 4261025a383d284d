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
  assert.deepEqual(inferAnnotations('frobnicate', 'Removes stale entries'), {
    readOnlyHint: false,
    destructiveHint: true,
  });
  assert.equal(inferAnnotations('frobnicate', 'Twiddle the knobs'), undefined);
});

test(
  "a tool name's leading verb decides: the nouns after it are not verbs; " +
    'a description leading with another verb, or a bare write verb later, is no read',
  () => {
    assert.deepEqual(inferAnnotations('list_commits', 'Get list of commits of a branch'), { readOnlyHint: true });
    assert.deepEqual(inferAnnotations('get_settings', ''), { readOnlyHint: true });
    assert.deepEqual(inferAnnotations('get_pull_request_files', 'Get the list of files changed in a pull request'), {
      readOnlyHint: true,
    });
    assert.deepEqual(inferAnnotations('convert_time', 'Convert time between timezones.'), { readOnlyHint: true });
    assert.deepEqual(inferAnnotations('current_time', 'Get the current date and time.'), { readOnlyHint: true });
    assert.deepEqual(inferAnnotations('git_commit', ''), { readOnlyHint: false, destructiveHint: false });
    assert.deepEqual(inferAnnotations('query', 'Execute a raw SQL query against the database'), {
      readOnlyHint: false,
      destructiveHint: false,
    });
    assert.deepEqual(inferAnnotations('search_and_replace', ''), { readOnlyHint: false, destructiveHint: false });
    assert.deepEqual(inferAnnotations('get_or_create_user', ''), { readOnlyHint: false, destructiveHint: false });
    assert.deepEqual(inferAnnotations('fork_repository', 'Fork a GitHub repository to your account'), {
      readOnlyHint: false,
      destructiveHint: false,
    });
    assert.deepEqual(
      inferAnnotations('list_deleted_items', ''),
      { readOnlyHint: false, destructiveHint: true },
      'a destructive word anywhere asks for care',
    );
  },
);

test('a read the user confirmed: call_tool_read, but never over what a server or spell declares', () => {
  const tool = { name: 'list_tables', description: 'List all user tables' };
  const confirmed = effectiveAnnotations(tool, undefined, true, true);
  assert.deepEqual(confirmed, { readOnlyHint: true, source: 'user' });
  assert.equal(callWith(confirmed), 'call_tool_read');
  assert.equal(
    validateIntent('read', { operation_type: 'read' }, 'sqlite:list_tables', confirmed, true).decision,
    'allowed',
  );
  assert.equal(
    effectiveAnnotations(tool, undefined, true, false).source,
    'inferred',
    'the same tool object decides again without the confirmation',
  );
  const writes = { name: 'list_tables', annotations: { readOnlyHint: false } };
  assert.equal(effectiveAnnotations(writes, undefined, true, true).source, 'server');
  assert.equal(effectiveAnnotations(tool, { readOnlyHint: false }, true, true).source, 'spell');
});

test('precedence: spell over server over inferred; inference can be switched off', () => {
  const tool = { name: 'delete_x', annotations: { readOnlyHint: true } };
  assert.equal(effectiveAnnotations(tool, undefined, true).source, 'server');
  assert.equal(effectiveAnnotations(tool, { destructiveHint: true }, true).source, 'spell');
  assert.equal(effectiveAnnotations(tool, { destructiveHint: true }, true).destructiveHint, true);
  const bare = { name: 'delete_x' };
  assert.deepEqual(effectiveAnnotations(bare, undefined, true), {
    readOnlyHint: false,
    destructiveHint: true,
    source: 'inferred',
    inferred: true,
  });
  assert.deepEqual(effectiveAnnotations(bare, undefined, false), { source: 'none' });
});

test('annotations are decided once per tool object and inputs; another override, setting or listing decides again', () => {
  const tool = { name: 'delete_file', description: 'Deletes a file' };
  const first = effectiveAnnotations(tool, undefined, true);
  assert.equal(effectiveAnnotations(tool, undefined, true), first, 'the same decision object');
  assert.ok(Object.isFrozen(first), 'shared, so it cannot be changed by one caller');
  assert.deepEqual(effectiveAnnotations(tool, { readOnlyHint: true }, true), { readOnlyHint: true, source: 'spell' });
  assert.deepEqual(effectiveAnnotations(tool, undefined, false), { source: 'none' });
  assert.deepEqual(
    effectiveAnnotations({ ...tool, annotations: { readOnlyHint: true } }, undefined, true),
    { readOnlyHint: true, source: 'server' },
    'a new listing',
  );
  assert.deepEqual(effectiveAnnotations(tool, undefined, true), {
    readOnlyHint: false,
    destructiveHint: true,
    source: 'inferred',
    inferred: true,
  });
});

test('call_with follows destructive, then read-only, else write', () => {
  assert.equal(callWith(server({ destructiveHint: true })), 'call_tool_destructive');
  assert.equal(callWith(server({ readOnlyHint: true })), 'call_tool_read');
  assert.equal(callWith(server({ readOnlyHint: false })), 'call_tool_write');
  assert.equal(callWith({ source: 'none' }), 'call_tool_write');
});

test('the matrix, with strict off turning annotation rejects into warnings but never a mismatch', () => {
  const read = (annotations: object, strict = true) =>
    validateIntent('read', { operation_type: 'read' }, 'p:t', server(annotations), strict).decision;
  assert.equal(read({ destructiveHint: true }), 'rejected');
  assert.equal(read({ readOnlyHint: true }), 'allowed');
  assert.equal(read({ readOnlyHint: false }), 'rejected');
  assert.equal(read({ destructiveHint: true }, false), 'warned');
  assert.equal(validateIntent('read', { operation_type: 'write' }, 'p:t', server({}), false).decision, 'rejected');
  assert.equal(validateIntent('write', undefined, 'p:t', server({}), false).decision, 'rejected');
  assert.equal(
    validateIntent('write', { operation_type: 'write' }, 'p:t', server({ readOnlyHint: true }), true).decision,
    'warned',
  );
  assert.equal(
    validateIntent('destructive', { operation_type: 'destructive' }, 'p:t', server({ readOnlyHint: true }), true)
      .decision,
    'allowed',
  );
  assert.match(
    validateIntent('read', { operation_type: 'read' }, 'github:delete_repo', server({ destructiveHint: true }), true)
      .message!,
    /Tool 'github:delete_repo' is marked destructive by its server; use call_tool_destructive/,
  );
});

test('variant names', () => {
  assert.equal(variantOf('call_tool_read'), 'read');
  assert.equal(variantOf('call_tool_destructive'), 'destructive');
  assert.equal(variantOf('call_tool'), undefined);
});

test('strict read: only a declared read-only reaches call_tool_read; inferred or missing is refused with how to proceed', () => {
  const read = { operation_type: 'read' as const };
  const inferredRead = effectiveAnnotations(
    { name: 'list_tables', description: 'List all user tables' },
    undefined,
    true,
  );
  assert.equal(inferredRead.source, 'inferred');
  assert.equal(inferredRead.readOnlyHint, true, 'the name suggests a read');
  const refused = validateIntent('read', read, 'sqlite:list_tables', inferredRead, true);
  assert.equal(refused.decision, 'rejected');
  assert.match(
    refused.message!,
    /^'sqlite:list_tables' does not declare itself read-only; call it with call_tool_write, or mark it read-only in a spell override/,
  );
  assert.match(
    refused.message!,
    /the user can confirm it read-only once: 'grimoire tools confirm-read sqlite:list_tables'/,
  );
  assert.equal(callWith(inferredRead), 'call_tool_write', 'inference is advice: call_with stays write');
  assert.equal(
    validateIntent('write', { operation_type: 'write' }, 'sqlite:list_tables', inferredRead, true).decision,
    'allowed',
  );
  const none = effectiveAnnotations({ name: 'frobnicate' }, undefined, true);
  assert.equal(validateIntent('read', read, 'x:frobnicate', none, true).decision, 'rejected');
  assert.equal(
    validateIntent('read', read, 'x:frobnicate', none, false).decision,
    'warned',
    'non-strict keeps the old behaviour, with a warning',
  );
  assert.equal(validateIntent('read', read, 'x:peek', server({ readOnlyHint: true }), true).decision, 'allowed');
  const spell = effectiveAnnotations({ name: 'query' }, { readOnlyHint: true }, true);
  assert.equal(
    validateIntent('read', read, 'sqlite:query', spell, true).decision,
    'allowed',
    'a spell override declares it',
  );
  assert.equal(callWith(spell), 'call_tool_read');
  assert.equal(
    callWith(effectiveAnnotations({ name: 'purge' }, undefined, true)),
    'call_tool_destructive',
    'inferred destructive asks for more care',
  );
});
