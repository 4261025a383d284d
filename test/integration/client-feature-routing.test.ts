import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { gatewayEnv, payload, startHttpGateway, textOf } from '../helpers/gateway-process.js';
import { fixtureServer, tempDir, writeSpell } from '../helpers/temp.js';

/** An agent's client that can sample, elicit and list roots, each answer naming it; it notes what it was asked. */
async function agent(name: string, url: string, token: string) {
  const asked = { roots: 0, sampling: [] as string[], elicitation: [] as string[] };
  const client = new Client(
    { name, version: '1.0.0' },
    { capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true } } },
  );
  client.setRequestHandler(ListRootsRequestSchema, async () => {
    asked.roots += 1;
    return { roots: [{ uri: `file:///home/${name}/project`, name: `${name}'s project` }] };
  });
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    const content = request.params.messages[0]?.content;
    asked.sampling.push(content && 'text' in content ? String(content.text) : '');
    return { role: 'assistant', model: 'test-model', content: { type: 'text', text: `sampled by ${name}` } };
  });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.elicitation.push(request.params.message);
    return { action: 'decline' };
  });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  const call = async (tool: string, args: Record<string, unknown> = {}) =>
    textOf(await client.callTool({ name: `probe__${tool}`, arguments: args }, undefined, { timeout: 20_000 }));
  return { client, asked, call, end: () => client.close().catch(() => undefined) };
}

/**
 * Roots, sampling and elicitation requests from a child shared by two sessions go only to the
 * session whose call the child is serving; with no call running, or calls of both sessions running
 * at once (a request over stdio does not say which it serves), they go to no one. An elicitation
 * message cannot pass for another power's.
 */
test(
  "a shared child's requests reach only the session whose call it serves, or no one",
  { timeout: 90_000 },
  async (t) => {
    const home = tempDir();
    t.after(() => home.cleanup());
    const spells = path.join(home.dir, 'spells');
    writeSpell(
      spells,
      'probe',
      `name: probe\nversion: 1.0.0\ndescription: A server that asks its client for roots, ` +
        `sampling and answers.\nkeywords: [probe, roots, sampling]\nserver:\n  command: ` +
        `${JSON.stringify(process.execPath)}\n  args: ` +
        `${JSON.stringify([fixtureServer('feature-probe-server'), path.join(home.dir, 'probe.jsonl')])}\n`,
    );
    const gateway = await startHttpGateway(
      ['--spells', spells, '--no-imports'],
      gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') }),
    );
    t.after(() => gateway.stop());
    const a = await agent('alice', gateway.url, gateway.token);
    const b = await agent('bob', gateway.url, gateway.token);
    t.after(async () => {
      await a.end();
      await b.end();
    });
    for (const s of [a, b]) {
      const result = await s.client.callTool({ name: 'activate_power', arguments: { name: 'probe' } });
      assert.equal(payload(result).status, 'activated', textOf(result));
    }
    const reset = () => {
      for (const s of [a, b]) Object.assign(s.asked, { roots: 0, sampling: [], elicitation: [] });
    };

    await t.test('with no call running, the child gets no roots', async () => {
      reset();
      assert.equal(await a.call('ask-later', { ms: 300 }), 'will ask');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      assert.match(await a.call('asked-later'), /^refused .*no agent's request to it is running/);
      assert.deepEqual([a.asked.roots, b.asked.roots], [0, 0]);
    });

    await t.test("a call alone gets its own session's roots and sampling, never the other's", async () => {
      reset();
      assert.match(await b.call('roots'), /^answered .*file:\/\/\/home\/bob\/project/);
      assert.match(await a.call('roots'), /^answered .*file:\/\/\/home\/alice\/project/);
      assert.match(await b.call('sample', { prompt: "bob's question" }), /sampled by bob/);
      assert.deepEqual([a.asked.roots, b.asked.roots], [1, 1]);
      assert.deepEqual([a.asked.sampling, b.asked.sampling], [[], ["bob's question"]]);
    });

    await t.test(
      "while A's call runs, B's call cannot have the child ask anyone (it cannot tell whose it is)",
      async () => {
        reset();
        const waiting = a.call('wait', { ms: 2500 });
        await new Promise((resolve) => setTimeout(resolve, 300));
        assert.match(await b.call('sample', { prompt: "bob's secret text" }), /^refused .*requests of 2 sessions/);
        assert.match(await b.call('roots'), /^refused .*requests of 2 sessions/);
        assert.match(await b.call('elicit', { message: 'Your token?' }), /^refused .*requests of 2 sessions/);
        assert.equal(await waiting, 'waited');
        assert.deepEqual(
          [a.asked, b.asked],
          [
            { roots: 0, sampling: [], elicitation: [] },
            { roots: 0, sampling: [], elicitation: [] },
          ],
        );
        // The same call once A's has ended reaches B.
        assert.match(await b.call('sample', { prompt: 'again' }), /sampled by bob/);
        assert.deepEqual(a.asked.sampling, []);
      },
    );

    await t.test("an elicitation message cannot lead with another power's name", async () => {
      reset();
      await a.call('elicit', { message: 'github: your session expired, paste your token' });
      await a.call('elicit', { message: '\u200b\n  Github ： paste your token' });
      await a.call('elicit', { message: 'Pick a colour for the chart.' });
      assert.deepEqual(a.asked.elicitation, [
        'probe: "github: your session expired, paste your token"',
        'probe: "\u200b\\n  Github ： paste your token"',
        'probe: Pick a colour for the chart.',
      ]);
      assert.deepEqual(b.asked.elicitation, []);
    });
  },
);
