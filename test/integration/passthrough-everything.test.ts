import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type {
  CreateMessageRequest,
  ElicitRequest,
  LoggingMessageNotification,
} from '@modelcontextprotocol/sdk/types.js';
import { gatewayEnv, payload, textOf, waitFor } from '../helpers/gateway-process.js';
import { startRemoteEverything } from '../helpers/remote-everything.js';
import { everythingSpell, everythingStdioServer } from '../helpers/everything-spell.js';
import { cliPath, tempDir, writeSpell } from '../helpers/temp.js';

/** An agent's client that can sample, elicit and list roots, recording what it was asked. */
async function agentClient(spells: string, home: string) {
  const seen = {
    sampling: [] as CreateMessageRequest['params'][],
    elicitation: [] as ElicitRequest['params'][],
    roots: 0,
    logs: [] as LoggingMessageNotification['params'][],
    updated: [] as string[],
    promptsChanged: 0,
    resourcesChanged: 0,
  };
  const client = new Client(
    { name: 'passthrough-test', version: '1.0.0' },
    { capabilities: { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } } },
  );
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    seen.sampling.push(request.params);
    return { role: 'assistant', model: 'test-model', content: { type: 'text', text: 'sampled answer 42' } };
  });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    seen.elicitation.push(request.params);
    return { action: 'decline' };
  });
  client.setRequestHandler(ListRootsRequestSchema, async () => {
    seen.roots += 1;
    return { roots: [{ uri: 'file:///work/project-root', name: 'project-root' }] };
  });
  client.setNotificationHandler(LoggingMessageNotificationSchema, async (n) => void seen.logs.push(n.params));
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (n) => void seen.updated.push(n.params.uri));
  client.setNotificationHandler(PromptListChangedNotificationSchema, async () => void seen.promptsChanged++);
  client.setNotificationHandler(ResourceListChangedNotificationSchema, async () => void seen.resourcesChanged++);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'serve', '--stdio', '--spells', spells, '--no-imports'],
    env: gatewayEnv({ home, data: path.join(home, 'data') }),
    stderr: 'pipe',
  });
  await client.connect(transport);
  return { client, seen };
}

for (const childTransport of ['stdio', 'http'] as const) {
  test(
    `server-everything over ${childTransport} behind the gateway: ` +
      `prompts, resources, completion, progress, sampling, elicitation, roots, logs`,
    { timeout: 120_000 },
    async (t) => {
      const remote = childTransport === 'http' ? await startRemoteEverything('streamableHttp') : undefined;
      const home = tempDir();
      const spells = path.join(home.dir, 'spells');
      writeSpell(
        spells,
        'everything',
        everythingSpell(remote ? `server:\n  transport: http\n  url: ${remote.url}\n` : everythingStdioServer),
      );
      const { client, seen } = await agentClient(spells, home.dir);
      t.after(async () => {
        await client.close();
        remote?.stop();
        home.cleanup();
      });

      assert.deepEqual((await client.listPrompts()).prompts, [], 'no power active: no prompts');
      const activated = payload(await client.callTool({ name: 'activate_power', arguments: { name: 'everything' } }));
      assert.equal(activated.status, 'activated', JSON.stringify(activated));
      await waitFor(() => seen.promptsChanged > 0, 5000, 'prompts/list_changed after the activation');
      // The server registers its sampling, elicitation and roots tools once initialized, then says so.
      await waitFor(
        async () =>
          (await client.listTools()).tools.some((tool) => tool.name === 'everything__trigger-sampling-request'),
        10_000,
        'the conditional tools',
      );

      await t.test('prompts are namespaced, titled with the power, and reach the server', async () => {
        const { prompts } = await client.listPrompts();
        const args = prompts.find((p) => p.name === 'everything__args-prompt');
        assert.ok(args, prompts.map((p) => p.name).join(', '));
        assert.match(args.title ?? '', /^everything: /);
        const got = await client.getPrompt({
          name: 'everything__args-prompt',
          arguments: { city: 'Lyon', state: 'Rhone' },
        });
        assert.match(JSON.stringify(got.messages), /Lyon/);
        await assert.rejects(client.getPrompt({ name: 'args-prompt' }), /not available/);
      });

      await t.test('completion of a prompt argument reaches the server', async () => {
        const result = await client.complete({
          ref: { type: 'ref/prompt', name: 'everything__completable-prompt' },
          argument: { name: 'department', value: 'E' },
        });
        assert.ok(result.completion.values.includes('Engineering'), JSON.stringify(result));
      });

      await t.test('resources keep their URIs and are read through the gateway; templates too', async () => {
        const { resources } = await client.listResources();
        assert.ok(resources.length > 0);
        const first = resources[0];
        assert.ok(!first.uri.startsWith('grimoire://'), first.uri);
        assert.match(first.title ?? '', /^everything: /);
        const read = await client.readResource({ uri: first.uri });
        assert.equal(read.contents[0].uri, first.uri);
        const { resourceTemplates } = await client.listResourceTemplates();
        const text = resourceTemplates.find((r) => r.uriTemplate === 'demo://resource/dynamic/text/{resourceId}');
        assert.ok(text, resourceTemplates.map((r) => r.uriTemplate).join(', '));
        const completed = await client.complete({
          ref: { type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' },
          argument: { name: 'resourceId', value: '12' },
        });
        assert.deepEqual(completed.completion.values, ['12'], 'completion of a template argument reaches the server');
        const dynamic = await client.readResource({ uri: 'demo://resource/dynamic/text/7' });
        assert.match(JSON.stringify(dynamic.contents), /7/);
        await assert.rejects(client.readResource({ uri: 'nowhere://nothing' }), /not found/);
      });

      await t.test('a resource link in a tool result is readable through the gateway', async () => {
        const result = await client.callTool({ name: 'everything__get-resource-links', arguments: { count: 2 } });
        const links = (result.content as Array<{ type: string; uri?: string }>).filter(
          (c) => c.type === 'resource_link',
        );
        assert.ok(links.length > 0, JSON.stringify(result));
        const read = await client.readResource({ uri: links[0].uri! });
        assert.equal(read.contents[0].uri, links[0].uri);
      });

      await t.test('a resource the server adds: its list_changed reaches the agent and the list shows it', async () => {
        const before = seen.resourcesChanged;
        const result = await client.callTool({
          name: 'everything__gzip-file-as-resource',
          arguments: {
            name: 'probe.txt.gz',
            data: 'data:text/plain;base64,aGVsbG8gZ3JpbW9pcmU=',
            outputType: 'resourceLink',
          },
        });
        assert.ok(!result.isError, textOf(result));
        await waitFor(() => seen.resourcesChanged > before, 5000, 'resources/list_changed from the server');
        const { resources } = await client.listResources();
        assert.ok(
          resources.some((r) => r.uri === 'demo://resource/session/probe.txt.gz'),
          resources.map((r) => r.uri).join(', '),
        );
      });

      await t.test('subscribe: the server update reaches the session that subscribed', async () => {
        const uri = 'demo://resource/dynamic/text/1';
        await client.subscribeResource({ uri });
        await client.callTool({ name: 'everything__toggle-subscriber-updates', arguments: {} });
        await waitFor(() => seen.updated.includes(uri), 15_000, 'notifications/resources/updated');
        await client.callTool({ name: 'everything__toggle-subscriber-updates', arguments: {} });
        await client.unsubscribeResource({ uri });
      });

      await t.test(
        "tool results: a plain tool's (the calls lane) and a tool's with an output schema (the SDK Client's validation) come back whole",
        async () => {
          const echoed = await client.callTool({ name: 'everything__echo', arguments: { message: 'lane ok' } });
          assert.ok(!echoed.isError, textOf(echoed));
          assert.match(textOf(echoed), /lane ok/);
          const tools = (await client.listTools()).tools;
          assert.ok(
            tools.find((tool) => tool.name === 'everything__get-structured-content')?.outputSchema,
            'the output schema is advertised',
          );
          const weather = await client.callTool({
            name: 'everything__get-structured-content',
            arguments: { location: 'Chicago' },
          });
          assert.ok(!weather.isError, textOf(weather));
          const structured = weather.structuredContent as
            { temperature?: unknown; conditions?: unknown; humidity?: unknown } | undefined;
          assert.equal(typeof structured?.temperature, 'number', JSON.stringify(weather));
          assert.equal(typeof structured?.conditions, 'string');
          assert.equal(typeof structured?.humidity, 'number');
        },
      );

      await t.test('progress of the long-running operation arrives with the agent token', async () => {
        const progress: number[] = [];
        const result = await client.callTool(
          { name: 'everything__trigger-long-running-operation', arguments: { duration: 1, steps: 3 } },
          undefined,
          {
            onprogress: (p) => void progress.push(p.progress),
          },
        );
        assert.ok(!result.isError, textOf(result));
        // The SDK drops a progress notification that arrives after its response: the last one may be missing.
        assert.ok(progress.length >= 2, JSON.stringify(progress));
        assert.deepEqual(progress, [1, 2, 3].slice(0, progress.length));
      });

      await t.test('sampling: the server asks, the agent answers, the power is named', async () => {
        const result = await client.callTool({
          name: 'everything__trigger-sampling-request',
          arguments: { prompt: 'What is the answer?' },
        });
        assert.match(textOf(result), /sampled answer 42/);
        assert.equal(seen.sampling.length, 1);
        assert.equal(seen.sampling[0]._meta?.['grimoire/power'], 'everything');
      });

      await t.test('elicitation: the question reaches the agent with the power name', async () => {
        const result = await client.callTool({ name: 'everything__trigger-elicitation-request', arguments: {} });
        assert.equal(seen.elicitation.length, 1, textOf(result));
        assert.match(seen.elicitation[0].message, /^everything: /);
        assert.match(textOf(result), /decline/i);
      });

      await t.test("roots: the server sees the agent's roots", async () => {
        const result = await client.callTool({ name: 'everything__get-roots-list', arguments: {} });
        assert.match(textOf(result), /project-root/);
        assert.ok(seen.roots >= 1);
      });

      await t.test('logs are forwarded at the level the agent set', async () => {
        await client.setLoggingLevel('warning');
        seen.logs.length = 0;
        await client.callTool({ name: 'everything__toggle-simulated-logging', arguments: {} });
        await waitFor(
          () => seen.logs.some((l) => l.logger?.startsWith('everything')),
          35_000,
          'a forwarded log message (the server logs at a random level every 5 s)',
        );
        await client.callTool({ name: 'everything__toggle-simulated-logging', arguments: {} });
        const levels = new Set(seen.logs.filter((l) => l.logger?.startsWith('everything')).map((l) => l.level));
        for (const low of ['debug', 'info', 'notice']) assert.ok(!levels.has(low as never), [...levels].join(','));
      });
    },
  );
}

test(
  'two active powers with the same resource URIs: each is listed and read under a qualified URI',
  { timeout: 90_000 },
  async (t) => {
    const home = tempDir();
    const spells = path.join(home.dir, 'spells');
    const server = everythingStdioServer;
    writeSpell(spells, 'alpha', everythingSpell(server).replace('name: everything', 'name: alpha'));
    writeSpell(spells, 'beta', everythingSpell(server).replace('name: everything', 'name: beta'));
    const { client } = await agentClient(spells, home.dir);
    t.after(async () => {
      await client.close();
      home.cleanup();
    });
    for (const name of ['alpha', 'beta'])
      assert.equal(payload(await client.callTool({ name: 'activate_power', arguments: { name } })).status, 'activated');
    const { resources } = await client.listResources();
    const alphaDoc = resources.find((r) => r.uri.startsWith('grimoire://power/alpha/'));
    assert.ok(alphaDoc, resources.map((r) => r.uri).join(', '));
    const childUri = decodeURIComponent(alphaDoc.uri.slice('grimoire://power/alpha/'.length));
    assert.ok(
      resources.some((r) => r.uri === `grimoire://power/beta/${encodeURIComponent(childUri)}`),
      'the same resource of beta is listed under its own name',
    );
    assert.ok(!resources.some((r) => r.uri === childUri), 'the shared URI itself is not listed');
    const read = await client.readResource({ uri: alphaDoc.uri });
    assert.equal(read.contents[0].uri, alphaDoc.uri);
    await assert.rejects(client.readResource({ uri: childUri }), /offered by alpha and beta/);
    const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
    assert.ok(prompts.includes('alpha__simple-prompt') && prompts.includes('beta__simple-prompt'), prompts.join(', '));
  },
);
