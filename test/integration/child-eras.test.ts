import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createRuntime } from '../../server/runtime.js';
import { rpcPorts } from '../../server/rpc/rpc-ports.js';
import { powersPayload } from '../../server/rpc/payloads.js';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { connectFixture, fixtureHome, fixtureSpell, type FixtureHome } from '../helpers/fixture-gateway.js';
import { payload } from '../helpers/gateway-process.js';
import { writeMemorySpell } from '../helpers/memory-spell.js';
import { cliPath, writeSpell } from '../helpers/temp.js';

/**
 * Powers of both eras behind one gateway: a server on the SDK's v2 line (test/fixtures/servers/
 * modern-server.ts, which answers server/discover) and the npm server-memory (2025 only). The
 * gateway probes each with server/discover and falls back to initialize; `grimoire powers list`
 * and the power info name each one's revision; clients of both eras call tools of both.
 */
let fixture: FixtureHome;

before(() => {
  fixture = fixtureHome();
  writeSpell(
    fixture.spells,
    'forecast',
    fixtureSpell('forecast', 'modern-server', {
      description: 'Weather forecasts for a city, and notes.',
      keywords: ['weather', 'forecast', 'city', 'notes'],
    }),
  );
  writeMemorySpell(fixture.spells, path.join(fixture.home.dir, 'memory.jsonl'));
});

after(() => fixture.home.cleanup());

const weather = { name: 'forecast:weather', args: { city: 'Lyon' }, intent: { operation_type: 'read' } };
const graph = { name: 'memory:read_graph', args: {}, intent: { operation_type: 'read' } };

test(
  'a v1 (2025) client calls the modern power and the legacy one; ' +
    "the modern one's structured content arrives as it sent it",
  async () => {
    const { client } = await connectFixture(fixture);
    try {
      const forecast = await client.callTool({ name: 'call_tool_read', arguments: weather });
      assert.notEqual(forecast.isError, true, JSON.stringify(forecast.content));
      assert.deepEqual(forecast.structuredContent, { city: 'Lyon', forecast: 'sunny', celsius: 21 });
      const read = await client.callTool({ name: 'call_tool_read', arguments: graph });
      assert.notEqual(read.isError, true, JSON.stringify(read.content));
    } finally {
      await client.close();
    }
  },
);

test('a 2026-07-28 client calls both', async () => {
  const client = new Client(
    { name: 'v2-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [cliPath, 'serve', '--stdio', '--spells', fixture.spells, '--no-imports'],
      env: fixture.env,
      stderr: 'ignore',
    }),
  );
  try {
    const forecast = await client.callTool({ name: 'call_tool_read', arguments: weather });
    assert.deepEqual(forecast.structuredContent, { city: 'Lyon', forecast: 'sunny', celsius: 21 });
    const read = await client.callTool({ name: 'call_tool_read', arguments: graph });
    assert.notEqual(read.isError, true, JSON.stringify(read.content));
    const activated = payload(await client.callTool({ name: 'activate_power', arguments: { name: 'forecast' } }));
    assert.deepEqual(activated.callable.map((t: { name: string }) => t.name).sort(), [
      'forecast:confirm',
      'forecast:note',
      'forecast:weather',
    ]);
  } finally {
    await client.close();
  }
});

test("grimoire powers list shows each power's era, as its server last spoke", async () => {
  const listed = await new Promise<string>((resolve, reject) =>
    execFile(
      process.execPath,
      [cliPath, 'powers', 'list', '--spells', fixture.spells, '--no-imports', '--json'],
      { env: fixture.env },
      (error, stdout, stderr) => (error ? reject(new Error(stderr)) : resolve(stdout)),
    ),
  );
  const rows = (JSON.parse(listed) as { powers: Array<{ name: string; era: string; protocolVersion: string | null }> })
    .powers;
  const forecast = rows.find((row) => row.name === 'forecast');
  const memory = rows.find((row) => row.name === 'memory');
  assert.equal(forecast?.era, 'modern', JSON.stringify(rows));
  assert.equal(forecast?.protocolVersion, '2026-07-28');
  assert.equal(memory?.era, 'legacy', JSON.stringify(rows));
});

test('the power info the sidebar gets names the revision each running power speaks', async () => {
  const runtime = await createRuntime({ env: fixture.env, spellDirs: [fixture.spells], imports: false });
  try {
    await runtime.gateway.ports.activate('forecast');
    await runtime.gateway.ports.activate('memory');
    const powers = powersPayload(rpcPorts(runtime), runtime.registry.snapshot()).powers;
    assert.equal(powers.find((p) => p.name === 'forecast')?.protocolVersion, '2026-07-28');
    const legacy = powers.find((p) => p.name === 'memory')?.protocolVersion;
    assert.ok(legacy && legacy < '2026-07-28', String(legacy));
  } finally {
    await runtime.close();
  }
});

test("a modern power's input_required toward a 2025 client becomes that client's own elicitation, then the power is retried", async () => {
  const asked: string[] = [];
  const client = new V1Client({ name: 'v1-elicit', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    return { action: 'accept', content: { confirm: true } };
  });
  await client.connect(
    new V1StdioTransport({
      command: process.execPath,
      args: [cliPath, 'serve', '--stdio', '--spells', fixture.spells, '--no-imports'],
      env: fixture.env,
      stderr: 'ignore',
    }),
  );
  try {
    const answered = await client.callTool({
      name: 'call_tool_read',
      arguments: { name: 'forecast:confirm', args: { action: 'the launch' }, intent: { operation_type: 'read' } },
    });
    const text = (answered.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');
    assert.notEqual(answered.isError, true, text);
    assert.deepEqual(asked, ['forecast: Confirm the launch?']);
    assert.match(text, /the launch: confirmed/);
  } finally {
    await client.close();
  }
});
