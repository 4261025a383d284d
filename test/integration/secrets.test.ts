import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { connectStdio, payload, textOf, waitFor } from '../helpers/gateway-process.js';
import {
  connectFixture,
  definitionsFile,
  filesUnder,
  fixtureHome,
  fixtureSpell,
  type FixtureHome,
} from '../helpers/fixture-gateway.js';
import { cliPath, writeSpell } from '../helpers/temp.js';

/**
 * A child that prints a secret on stderr and crashes, then hangs at start (so its stderr is what
 * explains the failed start): the secret reaches no MCP message, no log line, no event, no activity
 * row and no store file.
 */
const SECRET = 'sk-live-4f9c2a7b1e8d3c6a9d0e';
let fixture: FixtureHome;
let defs: ReturnType<typeof definitionsFile>;
let session: Awaited<ReturnType<typeof connectStdio>>;
const results: string[] = [];

const define = (extra: Record<string, unknown>) =>
  defs.define({
    tools: [{ name: 'poke', description: 'Poke the backend.', inputSchema: { type: 'object', properties: {} } }],
    stderr: `API_KEY=${SECRET} connecting to the backend`,
    ...extra,
  });

before(async () => {
  fixture = fixtureHome(
    { upstream: { startTimeoutMs: 8000, restart: { maxAttempts: 1, baseDelayMs: 100 } } },
    { env: { GRIMOIRE_LOG: 'debug' } },
  );
  defs = definitionsFile(fixture.home.dir);
  define({ exitAfterMs: 800 });
  writeSpell(
    fixture.spells,
    'alpha',
    fixtureSpell('alpha', 'defined-server', {
      description: 'A server that leaks its key on stderr.',
      keywords: ['leak', 'backend', 'poke'],
      args: [defs.file],
      env: { MODE: 'alpha' },
    }),
  );
  session = await connectFixture(fixture);
});

after(async () => {
  await session.client.close();
  fixture.home.cleanup();
});

test('a crash, then a failed start explained by stderr: the secret is masked in every message the agent gets', async () => {
  const activated = await session.client.callTool({ name: 'activate_power', arguments: { name: 'alpha' } });
  results.push(JSON.stringify(activated));
  assert.equal(payload(activated).status, 'activated', textOf(activated));
  await waitFor(
    () => session.logMessages.some((m) => /alpha.*crashed/.test(m)),
    10_000,
    'the crash told to the session',
  );

  define({ silent: true });
  await waitFor(
    async () => {
      const call = await session.client.callTool({
        name: 'call_tool_write',
        arguments: { name: 'alpha:poke', args: {}, intent: { operation_type: 'write' } },
      });
      results.push(JSON.stringify(call));
      return call.isError === true && /failed to start: .*API_KEY=\*\*\*/.test(textOf(call));
    },
    60_000,
    'a failed start explained by the stderr line',
  );
  assert.ok(
    results.some((r) => r.includes('API_KEY=***')),
    'the start failure quotes stderr, masked',
  );
  const everything = [...results, ...session.logMessages].join('\n');
  assert.ok(!everything.includes(SECRET), 'not in any MCP result or logging message');
});

test('nor in the log, the events, the activity or any store file; a non-secret env value is not masked', async () => {
  const run = async (...args: string[]) =>
    (await promisify(execFile)(process.execPath, [cliPath, ...args], { env: fixture.env, encoding: 'utf8' })).stdout;
  const events = await run('events', '--json', '--limit', '200');
  const activity = await run('activity', 'list', '--json');
  assert.match(events, /power\.crashed/);
  assert.match(activity, /alpha/);
  const log = session.stderr.join('');
  assert.match(log, /stderr: API_KEY=\*\*\* connecting/, 'the stderr line is logged, masked');
  assert.match(log, /'alpha'/, "the power's name is not masked although MODE: alpha is an env value");
  for (const [where, text] of [
    ['events', events],
    ['activity', activity],
    ['log', log],
  ] as const)
    assert.ok(!text.includes(SECRET), `not in ${where}`);
  const files = filesUnder(path.join(fixture.home.dir, 'data'));
  assert.ok(files.length > 0);
  for (const file of files)
    assert.ok(!fs.readFileSync(file).includes(SECRET), `not in ${path.relative(fixture.home.dir, file)}`);
});
