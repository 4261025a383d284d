import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { everythingSpell, everythingStdioServer } from '../helpers/everything-spell.js';
import { fixtureHome, type FixtureHome } from '../helpers/fixture-gateway.js';
import { cliPath, writeSpell } from '../helpers/temp.js';

/**
 * A 2025 power (server-everything) asks for elicitation during a 2026-07-28 client's call: the
 * client, which takes no request from a server, gets `input_required`; the SDK's v2 Client answers
 * it with its own elicitation handler and retries; the power gets that answer and the call ends
 * with the power's result.
 */
let fixture: FixtureHome;

before(() => {
  fixture = fixtureHome();
  writeSpell(fixture.spells, 'everything', everythingSpell(everythingStdioServer));
});

after(() => fixture.home.cleanup());

test("a 2025 power's elicitation during a modern call reaches the client as input_required, and its answer reaches the power", async () => {
  const asked: string[] = [];
  const client = new Client(
    { name: 'v2-elicit', version: '1.0.0' },
    { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(String(request.params.message));
    return { action: 'accept', content: { name: 'Ada Lovelace' } };
  });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [cliPath, 'serve', '--stdio', '--spells', fixture.spells, '--no-imports'],
      env: fixture.env,
      stderr: 'ignore',
    }),
  );
  try {
    const call = (tool: string, variant: 'read' | 'write', args: Record<string, unknown> = {}) =>
      client.callTool(
        {
          name: `call_tool_${variant}`,
          arguments: { name: `everything:${tool}`, args, intent: { operation_type: variant } },
        },
        { timeout: 60_000 },
      );
    // The first call declares elicitation; the power, started without it, is restarted once so that it offers its elicitation tool.
    const echoed = await call('echo', 'read', { message: 'hi' });
    assert.notEqual(echoed.isError, true, JSON.stringify(echoed.content));
    let answered = await call('trigger-elicitation-request', 'write');
    for (let tries = 0; answered.isError && tries < 20; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      answered = await call('trigger-elicitation-request', 'write');
    }
    const text = (answered.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');
    assert.notEqual(answered.isError, true, text);
    assert.equal(answered.resultType ?? 'complete', 'complete');
    assert.equal(asked.length, 1, 'the client was asked once');
    assert.match(asked[0], /^everything: /, 'the question names the power that asks');
    assert.match(text, /Ada Lovelace/, "the power got the client's answer");
  } finally {
    await client.close();
  }
});
