import { FITTED_ACTIVATE_THRESHOLD } from '../../server/resolve/default-calibration.js';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { connectStdio, gatewayEnv, payload, textOf, waitFor } from '../helpers/gateway-process.js';
import { tempDir } from '../helpers/temp.js';

/** The demo powers as real children, driven by the SDK client over stdio. */
let home: { dir: string; cleanup: () => void };
let session: Awaited<ReturnType<typeof connectStdio>>;

before(async () => {
  home = tempDir();
  session = await connectStdio(
    ['--demo', '--no-imports'],
    gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') }),
  );
});

after(async () => {
  await session.client.close();
  home.cleanup();
});

test('before activation the agent sees only the gateway tools', async () => {
  const { tools } = await session.client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), [
    'activate_power',
    'call_tool_destructive',
    'call_tool_read',
    'call_tool_write',
    'deactivate_power',
    'get_artifact_context',
    'read_artifact',
    'resolve_intent',
    'retrieve_tools',
    'semantic_search',
  ]);
});

test('resolve -> activated (guidance once) -> tools -> real call -> deactivate with list_changed', async () => {
  const changesBefore = session.listChanged.count;
  const resolved = payload(
    await session.client.callTool({ name: 'resolve_intent', arguments: { query: 'read a file from my project' } }),
  );
  assert.equal(resolved.status, 'activated', JSON.stringify(resolved));
  assert.equal(resolved.power.name, 'filesystem');
  assert.ok(resolved.power.confidence >= FITTED_ACTIVATE_THRESHOLD);
  assert.ok(
    resolved.best_tools.includes('filesystem__read_text_file'),
    `the best tools for the request: ${JSON.stringify(resolved.best_tools)}`,
  );
  assert.ok(resolved.best_tools.length <= 3);
  assert.equal(resolved.tools, undefined, 'the answer does not repeat tools/list');
  assert.match(resolved.guidance, /list_allowed_directories/, 'the guidance comes with the activation');
  await waitFor(() => session.listChanged.count > changesBefore, 5000, 'list_changed after activation');

  const { tools } = await session.client.listTools();
  const readTool = tools.find((t) => t.name === 'filesystem__read_text_file');
  assert.ok(readTool, 'read_text_file is exposed');
  assert.doesNotMatch(
    readTool.description ?? '',
    /list_allowed_directories/,
    'the guidance is not repeated in every tool',
  );
  assert.equal(readTool.annotations?.readOnlyHint, true, 'annotations pass through');

  const allowed = textOf(
    await session.client.callTool({ name: 'filesystem__list_allowed_directories', arguments: {} }),
  );
  const projectDir = allowed
    .split('\n')
    .find((line) => line.includes('demo-project'))
    ?.trim();
  assert.ok(projectDir, `allowed directories: ${allowed}`);
  const file = await session.client.callTool({
    name: 'filesystem__read_text_file',
    arguments: { path: path.join(projectDir, 'README.md') },
  });
  assert.notEqual(file.isError, true);
  assert.match(textOf(file), /# Demo project/);

  const before = session.listChanged.count;
  const off = payload(await session.client.callTool({ name: 'deactivate_power', arguments: { name: 'filesystem' } }));
  assert.equal(off.status, 'deactivated');
  await waitFor(() => session.listChanged.count > before, 5000, 'list_changed after deactivation');
  const after = await session.client.listTools();
  assert.ok(!after.tools.some((t) => t.name.startsWith('filesystem__')));
});

test('activate_power with an unknown name lists the known powers', async () => {
  const result = await session.client.callTool({ name: 'activate_power', arguments: { name: 'github' } });
  assert.equal(result.isError, true);
  const body = payload(result);
  assert.match(body.error, /Unknown power 'github'/);
  assert.deepEqual([...body.known_powers].sort(), ['everything', 'filesystem', 'memory']);
});

test('wrong argument types get a message naming the argument', async () => {
  const result = await session.client.callTool({ name: 'resolve_intent', arguments: { query: 42 } });
  assert.equal(result.isError, true);
  assert.match(payload(result).error, /Invalid arguments for resolve_intent: query:/);
});

test('a request no power serves is not_found and lists every power', async () => {
  const body = payload(
    await session.client.callTool({ name: 'resolve_intent', arguments: { query: 'book a flight to Lisbon' } }),
  );
  assert.equal(body.status, 'not_found', JSON.stringify(body));
  assert.equal(body.powers.length, 3);
});

test('an answer that activates nothing names tools the agent calls at once; the power starts on that call', async () => {
  let body: Record<string, any> = {};
  // The catalog lists the demo powers' tools in the background: ask until memory's are known.
  await waitFor(
    async () => {
      body = payload(
        await session.client.callTool({ name: 'resolve_intent', arguments: { query: 'search my notes' } }),
      );
      return (
        body.status !== 'activated' &&
        body.matches?.some((m: { name: string; tools?: string[] }) => m.name === 'memory' && m.tools)
      );
    },
    30_000,
    "memory's tools named in a multiple_matches answer",
  );
  const memory = body.matches.find((m: { name: string }) => m.name === 'memory');
  assert.ok(memory.tools.length <= 3, JSON.stringify(memory.tools));
  const line: string = memory.tools.find((l: string) => l.startsWith('memory:search_nodes '));
  assert.match(line, /^memory:search_nodes via call_tool_read, args \{query: string\}: /);
  assert.match(
    body.message,
    new RegExp(
      /call_tool_(read|write|destructive)\(\{ name: '[\w-]+:[\w-]+', args: \{\.\.\.\}, intent: \{ /.source +
        /operation_type: '(read|write|destructive)' \} \}\)/.source,
    ),
  );
  assert.ok(
    !(await session.client.listTools()).tools.some((t) => t.name.startsWith('memory__')),
    'memory is not active in this session',
  );
  const result = await session.client.callTool({
    name: 'call_tool_read',
    arguments: { name: 'memory:search_nodes', args: { query: 'release' }, intent: { operation_type: 'read' } },
  });
  assert.notEqual(result.isError, true, textOf(result));
  assert.match(textOf(result), /entities/);
});

test('the old generic call_tool is not found and says what to do instead', async () => {
  const result = await session.client.callTool({ name: 'call_tool', arguments: {} });
  assert.equal(result.isError, true);
  assert.match(textOf(result), /call_tool/);
});

test('memory power: a write then a read through the gateway reach the real server', async () => {
  const activated = payload(await session.client.callTool({ name: 'activate_power', arguments: { name: 'memory' } }));
  assert.equal(activated.status, 'activated');
  await session.client.callTool({ name: 'memory__search_nodes', arguments: { query: 'Grimoire Test' } });
  const created = await session.client.callTool({
    name: 'memory__create_entities',
    arguments: {
      entities: [{ name: 'Grimoire Test', entityType: 'project', observations: ['written through the gateway'] }],
    },
  });
  assert.notEqual(created.isError, true, textOf(created));
  const found = await session.client.callTool({ name: 'memory__search_nodes', arguments: { query: 'Grimoire Test' } });
  assert.match(textOf(found), /written through the gateway/);
});
