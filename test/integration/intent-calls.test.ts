import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connectStdio, gatewayEnv, payload, textOf } from '../helpers/gateway-process.js';
import { annotatedSpell, cliPath, tempDir, writeSpell } from '../helpers/temp.js';

/** Every row of the intent-declaration matrix, through a real MCP client, against a real server. */
let home: { dir: string; cleanup: () => void };
let env: Record<string, string>;
let session: Awaited<ReturnType<typeof connectStdio>>;

before(async () => {
  home = tempDir();
  writeSpell(path.join(home.dir, 'spells'), 'annotated', annotatedSpell());
  env = gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') });
  session = await connectStdio(['--spells', path.join(home.dir, 'spells'), '--demo', '--no-imports'], env);
});

after(async () => {
  await session.client.close();
  home.cleanup();
});

async function call(
  variant: string,
  tool: string,
  intent: Record<string, unknown> | undefined = { operation_type: variant },
) {
  const result = await session.client.callTool({
    name: `call_tool_${variant}`,
    arguments: { name: tool, args: {}, ...(intent ? { intent } : {}) },
  });
  return { result, text: textOf(result), error: result.isError ? payload(result).error : undefined };
}

const rows: Array<[string, string, string, Record<string, unknown> | undefined, 'allow' | 'warn' | 'reject', RegExp?]> =
  [
    [
      'read | read | destructiveHint=true -> reject',
      'read',
      'annotated:wipe_all',
      undefined,
      'reject',
      /marked destructive by its server; use call_tool_destructive/,
    ],
    ['read | read | readOnlyHint=true -> allow', 'read', 'annotated:peek', undefined, 'allow'],
    [
      'read | read | none (strict) -> reject: read-only is not declared',
      'read',
      'annotated:frobnicate',
      undefined,
      'reject',
      /'annotated:frobnicate' does not declare itself read-only; call it with call_tool_write, or mark it read-only in a spell override/,
    ],
    [
      'read | read | readOnlyHint=false explicit -> reject',
      'read',
      'annotated:scribble',
      undefined,
      'reject',
      /not read-only by its server .*use call_tool_write/,
    ],
    [
      'read | write -> reject (mismatch)',
      'read',
      'annotated:peek',
      { operation_type: 'write' },
      'reject',
      /intent 'write'.*use call_tool_write/,
    ],
    [
      'read | destructive -> reject (mismatch)',
      'read',
      'annotated:peek',
      { operation_type: 'destructive' },
      'reject',
      /use call_tool_destructive/,
    ],
    [
      'write | write | destructiveHint=true -> reject',
      'write',
      'annotated:wipe_all',
      undefined,
      'reject',
      /marked destructive by its server; use call_tool_destructive/,
    ],
    [
      'write | write | readOnlyHint=true -> warn + allow',
      'write',
      'annotated:peek',
      undefined,
      'warn',
      /marked read-only/,
    ],
    ['write | write | none -> allow', 'write', 'annotated:frobnicate', undefined, 'allow'],
    ['destructive | destructive | destructive tool -> allow', 'destructive', 'annotated:wipe_all', undefined, 'allow'],
    ['destructive | destructive | read-only tool -> allow', 'destructive', 'annotated:peek', undefined, 'allow'],
    [
      'any | missing intent -> reject (at argument parsing)',
      'write',
      'annotated:frobnicate',
      {},
      'reject',
      /intent\.operation_type: required/,
    ],
  ];

for (const [title, variant, tool, intent, expected, message] of rows) {
  test(`matrix: ${title}`, async () => {
    const { result, text, error } = await call(variant, tool, intent ?? { operation_type: variant });
    if (expected === 'reject') {
      assert.equal(result.isError, true, text);
      assert.match(error, message!);
      assert.doesNotMatch(text, /ran /, 'the server was not called');
    } else {
      assert.notEqual(result.isError, true, text);
      assert.match(text, new RegExp(`ran ${tool.split(':')[1]}`));
      if (expected === 'warn') assert.match(text, message!);
    }
  });
}

test('inferred annotations: a destructive-sounding name is treated as destructive and marked inferred everywhere', async () => {
  const { error } = await call('read', 'annotated:purge_cache');
  assert.match(error, /marked destructive by Grimoire from its name or description \(inferred/);
  const found = payload(
    await session.client.callTool({ name: 'retrieve_tools', arguments: { query: 'purge cache', limit: 3 } }),
  );
  const purge = found.tools.find((t: { name: string }) => t.name === 'annotated:purge_cache');
  assert.equal(purge.annotations.inferred, true);
  assert.equal(purge.call_with, 'call_tool_destructive');
  const list = found.tools.find((t: { name: string }) => t.name === 'annotated:list_things');
  if (list) assert.equal(list.call_with, 'call_tool_write', 'an inferred read is advice: call_with stays write');
  await session.client.callTool({ name: 'activate_power', arguments: { name: 'annotated' } });
  const exposed = (await session.client.listTools()).tools.find((t) => t.name === 'annotated__purge_cache')!;
  assert.equal(exposed.annotations?.destructiveHint, true);
  assert.equal(exposed._meta?.['grimoire/annotationsInferred'], true);
  assert.doesNotMatch(exposed.description ?? '', /inferred/, 'marked in _meta, not in prose');
});

test('real servers from npm: memory create_entities says it writes; filesystem write_file is destructive; echo reads', async () => {
  assert.match((await call('read', 'memory:create_entities')).error, /not read-only by its server/);
  assert.match((await call('write', 'filesystem:write_file')).error, /marked destructive by its server/);
  const echo = await session.client.callTool({
    name: 'call_tool_read',
    arguments: {
      name: 'everything:echo',
      args: { message: 'hello' },
      intent: { operation_type: 'read', reason: 'check' },
    },
  });
  assert.match(textOf(echo), /hello/);
});

test("the MCP key 'arguments' is taken as args; an unknown key is refused by name, never dropped", async () => {
  const viaAlias = await session.client.callTool({
    name: 'call_tool_read',
    arguments: {
      name: 'everything:echo',
      arguments: { message: 'through the alias' },
      intent: { operation_type: 'read' },
    },
  });
  assert.notEqual(viaAlias.isError, true, textOf(viaAlias));
  assert.match(textOf(viaAlias), /through the alias/);
  const both = await session.client.callTool({
    name: 'call_tool_read',
    arguments: {
      name: 'everything:echo',
      args: { message: 'a' },
      arguments: { message: 'b' },
      intent: { operation_type: 'read' },
    },
  });
  assert.match(payload(both).error, /once, in args/);
  const misspelt = await session.client.callTool({
    name: 'call_tool_read',
    arguments: { name: 'everything:echo', params: { message: 'lost' }, intent: { operation_type: 'read' } },
  });
  assert.equal(misspelt.isError, true);
  assert.match(payload(misspelt).error, /unknown key 'params': did you mean args/);
});

test('the gateway tools carry annotations that match their names; old call_tool names the variants', async () => {
  const { tools } = await session.client.listTools();
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  assert.equal(byName.call_tool_read.annotations?.readOnlyHint, true);
  assert.equal(byName.call_tool_destructive.annotations?.destructiveHint, true);
  assert.equal(byName.call_tool_write.annotations?.destructiveHint, false);
  const old = await session.client.callTool({ name: 'call_tool', arguments: {} });
  assert.match(textOf(old), /call_tool_read, call_tool_write or call_tool_destructive/);
});

test('unknown powers and tools, and wrong argument types, get messages that say what to do', async () => {
  assert.match((await call('read', 'nope:thing')).error, /Unknown power 'nope'. Known powers:/);
  assert.match((await call('read', 'annotated:nothing')).error, /has no tool 'nothing'. Its tools: .*peek/);
  const bad = await session.client.callTool({
    name: 'call_tool_read',
    arguments: { name: 'annotated:peek', args: 'not an object', intent: { operation_type: 'read' } },
  });
  assert.match(payload(bad).error, /Invalid arguments for call_tool_read: args:/);
});

test('the log records allowed, warned and rejected calls with their intent; CLI filters agree', async () => {
  await session.client.callTool({
    name: 'call_tool_destructive',
    arguments: {
      name: 'annotated:wipe_all',
      args: {},
      intent: { operation_type: 'destructive', data_sensitivity: 'internal', reason: 'cleanup test' },
    },
  });
  const list = (...flags: string[]) =>
    JSON.parse(
      execFileSync(process.execPath, [cliPath, 'activity', 'list', '--json', '--limit', '500', ...flags], {
        env,
        encoding: 'utf8',
      }),
    ).activity;
  const all = list();
  const decisions = new Set(all.map((r: { decision: string }) => r.decision));
  assert.deepEqual([...decisions].sort(), ['allowed', 'rejected', 'warned']);
  const destructive = list('--intent-type', 'destructive');
  assert.ok(destructive.length >= 3);
  assert.ok(destructive.every((r: { operationType: string }) => r.operationType === 'destructive'));
  const cleanup = destructive.find((r: { reason: string }) => r.reason === 'cleanup test');
  assert.equal(cleanup.dataSensitivity, 'internal');
  assert.equal(cleanup.status, 'ok');
  const rejected = list('--status', 'rejected');
  assert.ok(
    rejected.every(
      (r: { decision: string; decisionReason: string }) => r.decision === 'rejected' && r.decisionReason.length > 0,
    ),
  );
});

test('grimoire call goes through the same validation and log', () => {
  const out = execFileSync(
    process.execPath,
    [
      cliPath,
      'call',
      'tool-read',
      'everything:echo',
      '--args',
      '{"message":"from the cli"}',
      '--reason',
      'cli test',
      '--demo',
      '--no-imports',
    ],
    { env, encoding: 'utf8' },
  );
  assert.match(out, /from the cli/);
  let refused = '';
  try {
    execFileSync(
      process.execPath,
      [cliPath, 'call', 'tool-read', 'filesystem:write_file', '--args', '{}', '--demo', '--no-imports'],
      { env, encoding: 'utf8', stdio: 'pipe' },
    );
  } catch (error) {
    refused = String((error as { stdout: string }).stdout);
  }
  assert.match(refused, /marked destructive by its server/);
  const rows = JSON.parse(
    execFileSync(process.execPath, [cliPath, 'activity', 'list', '--json', '--power', 'everything'], {
      env,
      encoding: 'utf8',
    }),
  ).activity;
  assert.ok(rows.some((r: { session: string; reason: string }) => r.session === 'cli' && r.reason === 'cli test'));
});

test('strict server validation off turns annotation rejects into warnings; a spell override wins', async () => {
  const other = tempDir();
  writeSpell(
    path.join(other.dir, 'spells'),
    'annotated',
    annotatedSpell('annotations:\n  frobnicate: { destructiveHint: true, readOnlyHint: false }\n'),
  );
  fs.writeFileSync(
    path.join(other.dir, 'settings.json'),
    JSON.stringify({ intentDeclaration: { strictServerValidation: false } }),
  );
  const loose = await connectStdio(
    ['--spells', path.join(other.dir, 'spells'), '--no-imports'],
    gatewayEnv({ home: other.dir, data: path.join(other.dir, 'data') }),
  );
  try {
    const warned = await loose.client.callTool({
      name: 'call_tool_read',
      arguments: { name: 'annotated:wipe_all', args: {}, intent: { operation_type: 'read' } },
    });
    assert.notEqual(warned.isError, true);
    assert.match(textOf(warned), /ran wipe_all/);
    assert.match(textOf(warned), /strict server validation is off/);
    const mismatch = await loose.client.callTool({
      name: 'call_tool_read',
      arguments: { name: 'annotated:peek', args: {}, intent: { operation_type: 'write' } },
    });
    assert.equal(mismatch.isError, true, 'a mismatched intent is rejected even when not strict');
    const overridden = await loose.client.callTool({
      name: 'call_tool_read',
      arguments: { name: 'annotated:frobnicate', args: {}, intent: { operation_type: 'read' } },
    });
    assert.match(textOf(overridden), /marked destructive by its spell file/);
  } finally {
    await loose.client.close();
    other.cleanup();
  }
});
