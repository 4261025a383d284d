import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { everythingEntry, everythingSpell, everythingStdioServer } from '../helpers/everything-spell.js';
import { fixtureHome, fixtureSpell, type FixtureHome } from '../helpers/fixture-gateway.js';
import { cliPath, fixtureServer, writeSpell } from '../helpers/temp.js';

/**
 * Nothing lost in passing, in both eras: the same calls made directly to the servers and through
 * the gateway give equal results (content blocks with their annotations, images, resource links,
 * structured content, the result's `_meta` with its trace keys `traceparent` and `tracestate`). The gateway's
 * documented additions are none on these results; the SDK's own wire fields of the 2026-07-28 era
 * (`resultType`, the server's identity in `_meta`) are left out of the comparison, as the client's SDK reads
 * them.
 */
let fixture: FixtureHome;

before(() => {
  fixture = fixtureHome();
  writeSpell(fixture.spells, 'everything', everythingSpell(everythingStdioServer));
  writeSpell(
    fixture.spells,
    'forecast',
    fixtureSpell('forecast', 'modern-server', {
      description: 'Weather forecasts.',
      keywords: ['weather', 'forecast', 'city'],
    }),
  );
});

after(() => fixture.home.cleanup());

const CALLS: Array<{
  power: 'everything' | 'forecast';
  tool: string;
  args: Record<string, unknown>;
  variant: 'read' | 'write';
}> = [
  {
    power: 'everything',
    tool: 'get-annotated-message',
    args: { messageType: 'error', includeImage: true },
    variant: 'read',
  },
  { power: 'everything', tool: 'get-resource-links', args: { count: 3 }, variant: 'read' },
  { power: 'everything', tool: 'get-structured-content', args: { location: 'Chicago' }, variant: 'read' },
  { power: 'everything', tool: 'get-tiny-image', args: {}, variant: 'read' },
  { power: 'forecast', tool: 'weather', args: { city: 'Oslo' }, variant: 'read' },
];

type Caller = (
  power: string,
  tool: string,
  args: Record<string, unknown>,
  variant: string,
) => Promise<Record<string, unknown>>;

/** The result without the 2026-07-28 wire fields the SDKs add and read themselves. */
function comparable(result: Record<string, unknown>): Record<string, unknown> {
  const { resultType: _resultType, _meta, ...rest } = result;
  const meta = Object.fromEntries(
    Object.entries((_meta as Record<string, unknown> | undefined) ?? {}).filter(
      ([key]) => !key.startsWith('io.modelcontextprotocol/'),
    ),
  );
  return Object.keys(meta).length ? { ...rest, _meta: meta } : rest;
}

async function direct(modern: boolean): Promise<{ call: Caller; close: () => Promise<void> }> {
  const clients = new Map<string, Client | V1Client>();
  for (const [power, args] of [
    ['everything', [everythingEntry, 'stdio']],
    ['forecast', [fixtureServer('modern-server')]],
  ] as const) {
    if (modern) {
      const client = new Client({ name: 'direct', version: '1' }, { versionNegotiation: { mode: 'auto' } });
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [...args], stderr: 'ignore' }));
      clients.set(power, client);
    } else {
      const client = new V1Client({ name: 'direct', version: '1' });
      await client.connect(new V1StdioTransport({ command: process.execPath, args: [...args], stderr: 'ignore' }));
      clients.set(power, client);
    }
  }
  return {
    call: async (power, tool, args) =>
      (await (clients.get(power) as Client).callTool({ name: tool, arguments: args })) as Record<string, unknown>,
    close: async () => void (await Promise.all([...clients.values()].map((c) => c.close()))),
  };
}

async function through(modern: boolean): Promise<{ call: Caller; close: () => Promise<void> }> {
  const args = [cliPath, 'serve', '--stdio', '--spells', fixture.spells, '--no-imports'];
  const { env } = fixture;
  const client = modern
    ? new Client({ name: 'via', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } })
    : new V1Client({ name: 'via', version: '1' });
  if (client instanceof Client)
    await client.connect(new StdioClientTransport({ command: process.execPath, args, env, stderr: 'ignore' }));
  else await client.connect(new V1StdioTransport({ command: process.execPath, args, env, stderr: 'ignore' }));
  return {
    call: async (power, tool, callArgs, variant) =>
      (await (client as Client).callTool({
        name: `call_tool_${variant}`,
        arguments: { name: `${power}:${tool}`, args: callArgs, intent: { operation_type: variant } },
      })) as Record<string, unknown>,
    close: () => client.close(),
  };
}

for (const modern of [false, true]) {
  test(`${modern ? '2026-07-28' : '2025'} era: each call gives the same result directly and through the gateway`, async () => {
    const [plain, gateway] = await Promise.all([direct(modern), through(modern)]);
    try {
      for (const { power, tool, args, variant } of CALLS) {
        const expected = comparable(await plain.call(power, tool, args, variant));
        if (tool === 'weather')
          assert.equal(
            (expected._meta as Record<string, unknown>)?.tracestate,
            'vendor=forecast',
            'the fixture sends trace keys',
          );
        const actual = comparable(await gateway.call(power, tool, args, variant));
        assert.deepEqual(actual, expected, `${power}:${tool}`);
      }
    } finally {
      await Promise.all([plain.close(), gateway.close()]);
    }
  });
}
