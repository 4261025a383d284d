import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { connectStdio, gatewayEnv, payload, waitFor } from '../helpers/gateway-process.js';
import { connectDirect, demoServerArgs, tokensOf } from '../helpers/demo-powers-direct.js';
import { tempDir } from '../helpers/temp.js';

const INFERRED_META = 'grimoire/annotationsInferred';

test(
  "each demo power's exposed tools cost at most its own tools/list plus its guidance once",
  { timeout: 60_000 },
  async () => {
    const home = tempDir();
    const servers = demoServerArgs(path.join(home.dir, 'direct-memory.jsonl'));
    const session = await connectStdio(
      ['--demo', '--no-imports'],
      gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') }),
    );
    try {
      for (const name of ['filesystem', 'memory', 'everything'] as const) {
        const client = await connectDirect(servers[name]);
        const direct = (await client.listTools()).tools;
        await client.close();
        const activated = payload(await session.client.callTool({ name: 'activate_power', arguments: { name } }));
        assert.equal(typeof activated.guidance, 'string', `${name}: the activation answer carries the guidance`);
        const exposed = (await session.client.listTools()).tools.filter((t) => t.name.startsWith(`${name}__`));
        assert.equal(exposed.length, direct.length);
        const budget = tokensOf(direct) + tokensOf(activated.guidance);
        assert.ok(
          tokensOf(exposed) <= budget,
          `${name}: exposed ${tokensOf(exposed)} tokens > direct ${tokensOf(direct)} + guidance ${tokensOf(activated.guidance)}`,
        );
        for (const tool of exposed) {
          assert.doesNotMatch(
            tool.description ?? '',
            /Guidance from|inferred/i,
            `${tool.name}: no steering or inferred note in the description`,
          );
          const own = direct.find((d) => `${name}__${d.name}` === tool.name)!;
          assert.ok(
            (tool.description ?? '').startsWith((own.description ?? '').trim()),
            `${tool.name} keeps its server's description`,
          );
        }
        assert.equal(activated.tools, undefined, 'the answer does not repeat the tool list tools/list sends');
        assert.equal(activated.call_with_tools, undefined, 'every tool is listed: none is offered as a line');
        await session.client.callTool({ name: 'deactivate_power', arguments: { name } });
        const again = payload(await session.client.callTool({ name: 'activate_power', arguments: { name } }));
        assert.equal(again.status, 'activated');
        assert.equal(
          again.guidance,
          undefined,
          `${name}: reactivation in the same session does not repeat the guidance`,
        );
        await session.client.callTool({ name: 'deactivate_power', arguments: { name } });
      }
    } finally {
      await session.client.close();
      home.cleanup();
    }
  },
);

test(
  'a tool with declared prerequisites says so in its description; inferred annotations are marked in _meta only',
  { timeout: 60_000 },
  async () => {
    const home = tempDir();
    const session = await connectStdio(
      ['--demo', '--no-imports'],
      gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') }),
    );
    try {
      await session.client.callTool({ name: 'activate_power', arguments: { name: 'memory' } });
      await session.client.callTool({ name: 'activate_power', arguments: { name: 'filesystem' } });
      await session.client.callTool({ name: 'activate_power', arguments: { name: 'everything' } });
      const tools = (await session.client.listTools()).tools;
      const byName = (name: string) => tools.find((t) => t.name === name)!;
      assert.match(byName('memory__create_entities').description!, /First call memory__search_nodes\.$/);
      assert.match(byName('filesystem__edit_file').description!, /First call filesystem__read_text_file\.$/);
      assert.doesNotMatch(byName('memory__read_graph').description!, /First call/);
      const inferred = tools.filter((t) => t._meta?.[INFERRED_META] === true);
      for (const tool of inferred) assert.doesNotMatch(tool.description ?? '', /inferred/i);
    } finally {
      await session.client.close();
      home.cleanup();
    }
  },
);

test(
  'the guidance reaches a session once: with the activation, or in retrieve_tools for a power it has not seen',
  { timeout: 60_000 },
  async () => {
    const home = tempDir();
    const session = await connectStdio(
      ['--demo', '--no-imports'],
      gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') }),
    );
    try {
      const retrieve = async () =>
        payload(
          await session.client.callTool({
            name: 'retrieve_tools',
            arguments: { query: 'search nodes in the knowledge graph memory', limit: 3 },
          }),
        );
      // The catalog learns the powers' tools in the background, one power at a time: ask until memory's are known.
      const answers: Array<Record<string, any>> = [];
      await waitFor(
        async () => {
          answers.push(await retrieve());
          return answers.at(-1)!.tools.some((t: { power: string }) => t.power === 'memory');
        },
        30_000,
        "memory's tools discovered",
      );
      const first = answers.at(-1)!;
      assert.match(first.guidance?.memory ?? '', /Search before you create/);
      const withTools = answers.filter((a) => a.tools.length > 0);
      assert.equal(typeof withTools[0]!.usage_instructions, 'string');
      assert.equal(answers.filter((a) => a.usage_instructions).length, 1, 'usage instructions once per session');
      const again = await retrieve();
      assert.equal(again.guidance?.memory, undefined, 'not repeated');
      assert.equal(again.usage_instructions, undefined, 'usage instructions once too');
      assert.equal(typeof again.message, 'string');

      const resolved = payload(
        await session.client.callTool({ name: 'resolve_intent', arguments: { query: 'read a file from my project' } }),
      );
      assert.equal(resolved.status, 'activated');
      // filesystem's guidance came once: in a retrieve_tools answer that showed one of its tools, or with this activation.
      const givenBefore = [...answers, again].filter((a) => a.guidance?.filesystem).length;
      assert.equal(givenBefore + (resolved.guidance ? 1 : 0), 1, 'the guidance once per session');
      assert.match(
        resolved.guidance ?? [...answers, again].find((a) => a.guidance?.filesystem)!.guidance.filesystem,
        /read_text_file/,
      );
      assert.equal(resolved.resolver, undefined, 'resolver internals only under explain');
      assert.ok(
        resolved.best_tools.includes('filesystem__read_text_file'),
        `the best tools for the request, by their listed names: ${resolved.best_tools}`,
      );
      assert.equal(resolved.tools, undefined, 'no per-tool dump');
      const explained = payload(
        await session.client.callTool({
          name: 'resolve_intent',
          arguments: { query: 'read a file from my project', explain: true },
        }),
      );
      assert.equal(typeof explained.resolver.mode, 'string');
    } finally {
      await session.client.close();
      home.cleanup();
    }
  },
);
