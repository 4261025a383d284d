import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { approveLaunches, connectStdio, gatewayEnv, payload, waitFor } from '../helpers/gateway-process.js';
import { definitionsFile } from '../helpers/fixture-gateway.js';
import { cliPath, fixtureServer, repoRoot, tempDir } from '../helpers/temp.js';

/**
 * Reads the user confirms once, against real servers imported from a Claude Desktop config:
 * mcp-sqlite (unannotated list_tables, read_records, ... and a `query` that runs any SQL) and the
 * defined-server with an unannotated get_current_time whose definition the test changes. Decisions go
 * through the real CLI on the store the running gateway uses.
 */
const home = tempDir();
const config = path.join(home.dir, '.config');
const env = gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') }, { XDG_CONFIG_HOME: config });
const defs = definitionsFile(home.dir);
const clock = (description: string) => ({
  name: 'get_current_time',
  description,
  inputSchema: { type: 'object', properties: { timezone: { type: 'string' } } },
});
const alarm = {
  name: 'set_alarm',
  description: 'Set an alarm at a time.',
  inputSchema: { type: 'object', properties: { at: { type: 'string' } } },
};
let session: Awaited<ReturnType<typeof connectStdio>>;

const cli = (...args: string[]) => spawnSync(process.execPath, [cliPath, 'tools', ...args], { env, encoding: 'utf8' });
const candidates = () =>
  JSON.parse(cli('reads', '--json').stdout).reads as Array<{ power: string; tool: string; status: string }>;
const read = async (name: string, args: Record<string, unknown> = {}) =>
  session.client.callTool({
    name: 'call_tool_read',
    arguments: { name, args, intent: { operation_type: 'read', reason: 'test' } },
  });

before(async () => {
  defs.define({ tools: [clock('Get the current date and time.'), alarm] });
  fs.mkdirSync(path.join(config, 'Claude'), { recursive: true });
  fs.writeFileSync(
    path.join(config, 'Claude', 'claude_desktop_config.json'),
    JSON.stringify({
      mcpServers: {
        sqlite: {
          command: process.execPath,
          args: [
            path.join(repoRoot, 'node_modules', 'mcp-sqlite', 'mcp-sqlite-server.js'),
            path.join(home.dir, 'db.sqlite'),
          ],
        },
        clock: { command: process.execPath, args: [fixtureServer('defined-server'), defs.file] },
      },
    }),
  );
  approveLaunches(env, ['sqlite', 'clock']);
  session = await connectStdio([], env);
  // Both listed (the gateway's discovery, or these activations).
  for (const name of ['sqlite', 'clock'])
    assert.equal(
      payload(await session.client.callTool({ name: 'activate_power', arguments: { name } })).status,
      'activated',
    );
});

after(async () => {
  await session.client.close();
  home.cleanup();
});

test('before a confirmation: reads by name go through write, call_tool_read refuses and says how the user confirms', async () => {
  const refused = await read('sqlite:list_tables');
  assert.equal(refused.isError, true);
  assert.match(
    payload(refused).error,
    /the user can confirm it read-only once: 'grimoire tools confirm-read sqlite:list_tables'/,
  );
  const answer = payload(
    await session.client.callTool({
      name: 'retrieve_tools',
      arguments: { query: 'list the tables of the sqlite database', limit: 5 },
    }),
  );
  assert.equal(
    answer.tools.find((t: { name: string }) => t.name === 'sqlite:list_tables').call_with,
    'call_tool_write',
  );
});

test(
  'the list of believed reads holds every unannotated read and no write; ' +
    'confirming them all lets call_tool_read through within a second, writes stay refused',
  async () => {
    const listed = candidates();
    const names = listed.map((c) => `${c.power}:${c.tool}`).sort();
    assert.deepEqual(names, [
      'clock:get_current_time',
      'sqlite:db_info',
      'sqlite:get_table_schema',
      'sqlite:list_tables',
      'sqlite:read_records',
    ]);
    assert.ok(listed.every((c) => c.status === 'new'));
    const powers = spawnSync(process.execPath, [cliPath, 'powers', 'list'], { env, encoding: 'utf8' });
    assert.match(
      powers.stdout,
      /5 listed tools look like reads but do not declare it: review them once with 'grimoire tools reads'/,
    );

    const confirmed = cli('confirm-read', '--all');
    assert.equal(confirmed.status, 0, confirmed.stderr);
    assert.match(confirmed.stdout, /confirmed read-only sqlite:list_tables/);
    await waitFor(
      async () => !(await read('sqlite:list_tables')).isError,
      5_000,
      'the running gateway to take the confirmation',
    );
    assert.match(JSON.stringify(await read('sqlite:list_tables')), /list|table/i);
    assert.equal((await read('clock:get_current_time')).isError, undefined);
    const query = await read('sqlite:query', { sql: 'CREATE TABLE t (x)' });
    assert.equal(query.isError, true, 'a query that runs any SQL is no read');
    assert.equal((await read('clock:set_alarm', { at: '7:00' })).isError, true);
    assert.ok(candidates().every((c) => c.status === 'confirmed'));

    const exposed = (await session.client.listTools()).tools.find((t) => t.name === 'sqlite__list_tables');
    assert.equal(exposed?.annotations?.readOnlyHint, true, 'the editor sees a read it may auto-approve');
    const answer = payload(
      await session.client.callTool({
        name: 'retrieve_tools',
        arguments: { query: 'what is the current time', limit: 5 },
      }),
    );
    assert.equal(
      answer.tools.find((t: { name: string }) => t.name === 'clock:get_current_time').call_with,
      'call_tool_read',
    );
  },
);

test('a confirmation is pinned to the version confirmed: a changed tool asks again', async () => {
  defs.define({ tools: [clock('Get the current date and time. Also sets the system clock when asked.'), alarm] });
  // The changed tool is held for review (trust pins); approving the change does not carry the read confirmation over.
  await waitFor(
    () => cli('approve', 'clock:get_current_time').status === 0,
    10_000,
    'the changed tool held for review',
  );
  await waitFor(
    async () => /does not declare itself read-only/.test(payload(await read('clock:get_current_time')).error ?? ''),
    5_000,
    'the approved new version, no longer confirmed read-only',
  );
  assert.equal(candidates().find((c) => c.tool === 'get_current_time')?.status, 'changed');
  assert.equal(cli('confirm-read', 'clock:get_current_time').status, 0);
  await waitFor(async () => !(await read('clock:get_current_time')).isError, 5_000, 'the new confirmation');
});

test('only an unannotated tool can be confirmed, and nothing an agent reaches confirms', async () => {
  const refused = cli('confirm-read', 'nonexistent:tool');
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /not a listed tool/);
  const names = (await session.client.listTools()).tools.map((t) => t.name);
  assert.ok(!names.some((name) => /confirm|read_only/i.test(name)), names.join(', '));
  assert.equal(cli('unconfirm-read', 'sqlite:list_tables').status, 0);
  await waitFor(async () => (await read('sqlite:list_tables')).isError === true, 5_000, 'the revoked confirmation');
});
