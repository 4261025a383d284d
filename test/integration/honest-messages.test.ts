import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connectStdio, payload, textOf, waitFor } from '../helpers/gateway-process.js';
import {
  connectFixture,
  definitionsFile,
  fixtureHome,
  fixtureSpell,
  type FixtureHome,
} from '../helpers/fixture-gateway.js';
import { writeSpell } from '../helpers/temp.js';

/**
 * Honest messages about a real child: one the gateway stops at the initialize timeout is reported
 * as a timeout (not as the signal the gateway sent it), and a crash or failed start never quotes
 * stderr a previous run of the server wrote.
 */
let fixture: FixtureHome;
let defs: ReturnType<typeof definitionsFile>;
let session: Awaited<ReturnType<typeof connectStdio>>;
const told: string[] = [];

const define = (extra: Record<string, unknown>) =>
  defs.define({
    tools: [{ name: 'poke', description: 'Poke the backend.', inputSchema: { type: 'object', properties: {} } }],
    ...extra,
  });
const poke = async () => {
  const result = await session.client.callTool({
    name: 'call_tool_write',
    arguments: { name: 'slow:poke', args: {}, intent: { operation_type: 'write' } },
  });
  told.push(textOf(result));
  return result;
};

before(async () => {
  fixture = fixtureHome({ upstream: { startTimeoutMs: 6000, restart: { maxAttempts: 5, baseDelayMs: 100 } } });
  defs = definitionsFile(fixture.home.dir);
  define({ stderr: 'first run: warming the cache', exitAfterMs: 3000 });
  writeSpell(
    fixture.spells,
    'slow',
    fixtureSpell('slow', 'defined-server', {
      description: 'A server that is slow to start.',
      keywords: ['slow', 'poke', 'backend'],
      args: [defs.file],
    }),
  );
  session = await connectFixture(fixture);
});

after(async () => {
  await session.client.close();
  fixture.home.cleanup();
});

test('a start stopped at the initialize timeout is reported as a timeout, and quotes no stderr of the run before it', async () => {
  const activated = await session.client.callTool({ name: 'activate_power', arguments: { name: 'slow' } });
  assert.equal(payload(activated).status, 'activated', textOf(activated));
  await waitFor(() => session.logMessages.some((m) => /slow.*crashed/.test(m)), 10_000, 'the first run crashed');
  assert.ok(
    session.logMessages.some((m) => /first run: warming the cache/.test(m)),
    'the crash of the first run quotes its own stderr',
  );
  // From now on the server never answers initialize and writes nothing.
  define({ silent: true });
  let failed = '';
  await waitFor(
    async () => {
      const result = await poke();
      if (result.isError && /failed to start/.test(textOf(result))) failed = textOf(result);
      return failed !== '';
    },
    30_000,
    'a start that timed out',
  );
  assert.match(failed, /did not answer initialize within 6 s, so Grimoire stopped it/);
  assert.doesNotMatch(failed, /SIGTERM|exited/, 'the signal the gateway sent is not the reason');
  assert.doesNotMatch(failed, /first run/, 'no stderr of the run before');
  await waitFor(
    () => session.logMessages.filter((m) => /slow.*(crashed|failed)/.test(m)).length >= 2,
    10_000,
    'the failed start told',
  );
  // Everything said since the silent run's start failed: more calls (backing off, then starting again) and the sessions' notices.
  const since = told.indexOf(failed);
  for (let i = 0; i < 3; i += 1) await poke();
  const later = session.logMessages.filter((m) => /slow/.test(m)).slice(1);
  for (const message of [...later, ...told.slice(since)])
    assert.doesNotMatch(message, /first run/, `stale stderr quoted: ${message}`);
});
