import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { gatewayEnv, payload, startHttpGateway, textOf, waitFor } from '../helpers/gateway-process.js';
import { everythingSpell, everythingStdioServer } from '../helpers/everything-spell.js';
import { tempDir, writeSpell } from '../helpers/temp.js';

/** An agent's client over Streamable HTTP that can sample, answering with its own name. */
async function samplingAgent(name: string, url: string, token: string) {
  const asked: string[] = [];
  const client = new Client({ name, version: '1.0.0' }, { capabilities: { sampling: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    asked.push(String(request.params._meta?.['grimoire/power']));
    return { role: 'assistant', model: 'test-model', content: { type: 'text', text: `sampled by ${name}` } };
  });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return {
    client,
    asked,
    end: async () => {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}

type Agent = Awaited<ReturnType<typeof samplingAgent>>;

function longRun(agent: Agent, seconds: number, steps: number, progress: Progress[] = []) {
  return agent.client.callTool(
    { name: 'everything__trigger-long-running-operation', arguments: { duration: seconds, steps } },
    undefined,
    {
      onprogress: (p) => void progress.push(p),
      timeout: 30_000,
    },
  );
}

// Two sessions share one server-everything child: what the child asks of a client (sampling) goes
// to the session whose call is in flight, to no one when calls of both are (over stdio the child's
// request does not say which call it serves), and each call's progress reaches the session that
// made it, with its own token.
test(
  'two sessions calling one power: sampling reaches the session calling alone, progress the session that asked',
  { timeout: 120_000 },
  async (t) => {
    const home = tempDir();
    const spells = path.join(home.dir, 'spells');
    writeSpell(spells, 'everything', everythingSpell(everythingStdioServer));
    const gateway = await startHttpGateway(
      ['--spells', spells, '--no-imports'],
      gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') }),
    );
    const agents: Agent[] = [];
    t.after(async () => {
      for (const agent of agents) await agent.end();
      await gateway.stop();
      home.cleanup();
    });
    const a = await samplingAgent('agent-a', gateway.url, gateway.token);
    agents.push(a);
    const b = await samplingAgent('agent-b', gateway.url, gateway.token);
    agents.push(b);
    for (const agent of [a, b]) {
      assert.equal(
        payload(await agent.client.callTool({ name: 'activate_power', arguments: { name: 'everything' } })).status,
        'activated',
      );
      // The server registers its sampling tool once initialized with a client that can sample, then says so.
      await waitFor(
        async () =>
          (await agent.client.listTools()).tools.some((tool) => tool.name === 'everything__trigger-sampling-request'),
        15_000,
        'the sampling tool',
      );
    }

    await t.test('concurrent calls: each session gets only its own progress', async () => {
      const progressA: Progress[] = [];
      const progressB: Progress[] = [];
      const [resultA, resultB] = await Promise.all([longRun(a, 2, 4, progressA), longRun(b, 2, 5, progressB)]);
      assert.ok(!resultA.isError && !resultB.isError, `${textOf(resultA)} / ${textOf(resultB)}`);
      // The SDK drops a progress notification that arrives after its response: the last one may be missing.
      assert.ok(progressA.length >= 3, JSON.stringify(progressA));
      assert.ok(progressB.length >= 4, JSON.stringify(progressB));
      assert.deepEqual(
        progressA.map((p) => [p.progress, p.total]),
        [1, 2, 3, 4].slice(0, progressA.length).map((n) => [n, 4]),
      );
      assert.deepEqual(
        progressB.map((p) => [p.progress, p.total]),
        [1, 2, 3, 4, 5].slice(0, progressB.length).map((n) => [n, 5]),
      );
    });

    await t.test(
      "sampling while another session's call runs on the child is refused: the child's request does not say which call it serves",
      async () => {
        a.asked.length = 0;
        b.asked.length = 0;
        const running = longRun(a, 3, 3);
        await new Promise((resolve) => setTimeout(resolve, 300));
        const refused = await b.client.callTool({
          name: 'everything__trigger-sampling-request',
          arguments: { prompt: 'Who answers?' },
        });
        assert.doesNotMatch(textOf(refused), /sampled by/, textOf(refused));
        assert.match(textOf(refused), /requests of 2 sessions/, textOf(refused));
        assert.deepEqual([a.asked, b.asked], [[], []], 'neither client was asked');
        const longer = await running;
        assert.ok(!longer.isError, textOf(longer));
      },
    );

    for (const caller of [a, b]) {
      await t.test(
        `sampling during ${caller === a ? "a's" : "b's"} call alone reaches ${caller === a ? 'a' : 'b'} only`,
        async () => {
          a.asked.length = 0;
          b.asked.length = 0;
          const sampled = await caller.client.callTool({
            name: 'everything__trigger-sampling-request',
            arguments: { prompt: 'Who answers?' },
          });
          assert.match(
            textOf(sampled),
            new RegExp(`sampled by ${caller === a ? 'agent-a' : 'agent-b'}`),
            textOf(sampled),
          );
          assert.deepEqual(caller.asked, ['everything']);
          assert.deepEqual((caller === a ? b : a).asked, [], 'the other session was not asked');
        },
      );
    }
  },
);
