import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { connectHttp, gatewayEnv, payload, startHttpGateway, textOf, waitFor } from '../helpers/gateway-process.js';
import { fixtureServer, tempDir, writeSpell } from '../helpers/temp.js';

/** A real `serve --http` gateway with the cancel-probe server (test/fixtures/servers/cancel-probe-server.ts) as power `probe`. */
async function probeGateway(args: string[] = []) {
  const home = tempDir();
  const spells = path.join(home.dir, 'spells');
  writeSpell(
    spells,
    'probe',
    `name: probe
version: 1.0.0
description: Waits until cancelled and asks the client something it then gives up on.
keywords: [cancel, wait, sampling]
server:
  command: ${JSON.stringify(process.execPath)}
  args: ${JSON.stringify([fixtureServer('cancel-probe-server')])}
`,
  );
  const gateway = await startHttpGateway(
    ['--spells', spells, '--no-imports', ...args],
    gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') }),
  );
  return { home, gateway };
}

test(
  'cancellation both ways through serve --http: the agent cancels a call, the server cancels its sampling request',
  { timeout: 60_000 },
  async (t) => {
    const { home, gateway } = await probeGateway();
    const client = new Client({ name: 'cancel-test', version: '1.0.0' }, { capabilities: { sampling: {} } });
    const sampling = { started: 0, abortedByServer: 0 };
    client.setRequestHandler(CreateMessageRequestSchema, async (_request, extra) => {
      sampling.started += 1;
      // The SDK (1.32) ignores the cancellation of a request whose id is 0 (`if (!requestId) return`):
      // the first sampling request, id 0 on both links, is answered at once.
      if (sampling.started === 1)
        return { role: 'assistant', model: 'quick', content: { type: 'text', text: 'quick answer' } };
      await new Promise<void>((resolve) => extra.signal.addEventListener('abort', () => resolve(), { once: true }));
      sampling.abortedByServer += 1;
      return { role: 'assistant', model: 'never', content: { type: 'text', text: 'too late' } };
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(gateway.url), {
        requestInit: { headers: { Authorization: `Bearer ${gateway.token}` } },
      }),
    );
    t.after(async () => {
      await client.close();
      await gateway.stop();
      home.cleanup();
    });
    assert.equal(
      payload(await client.callTool({ name: 'activate_power', arguments: { name: 'probe' } })).status,
      'activated',
    );

    const controller = new AbortController();
    // Cancelled once the server says it runs (its progress), so that there is a request to cancel.
    const call = client.callTool({ name: 'probe__wait', arguments: {} }, undefined, {
      signal: controller.signal,
      onprogress: () => controller.abort('the agent changed its mind'),
    });
    await assert.rejects(call, /changed its mind|abort/i);
    await waitFor(
      async () => /cancelled: 1/.test(textOf(await client.callTool({ name: 'probe__was_cancelled', arguments: {} }))),
      5000,
      "the server's wait call to be cancelled",
    );

    assert.match(
      textOf(await client.callTool({ name: 'probe__ask_then_give_up', arguments: { ms: 2000 } })),
      /answered/,
    );
    const result = await client.callTool({ name: 'probe__ask_then_give_up', arguments: { ms: 300 } });
    assert.match(textOf(result), /request ended: .*gave up/);
    assert.equal(sampling.started, 2);
    await waitFor(() => sampling.abortedByServer === 1, 5000, "the agent's sampling handler to see the cancellation");
  },
);

test("an agent session that ends mid-call cancels that call at the power's server", { timeout: 60_000 }, async (t) => {
  const { home, gateway } = await probeGateway();
  const leaving = await connectHttp(gateway.url, gateway.token);
  const staying = await connectHttp(gateway.url, gateway.token);
  t.after(async () => {
    await leaving.client.close().catch(() => undefined);
    await staying.client.close();
    await gateway.stop();
    home.cleanup();
  });
  for (const session of [leaving, staying])
    assert.equal(
      payload(await session.client.callTool({ name: 'activate_power', arguments: { name: 'probe' } })).status,
      'activated',
    );
  let running!: () => void;
  const started = new Promise<void>((resolve) => (running = resolve));
  const call = leaving.client.callTool({ name: 'probe__wait', arguments: {} }, undefined, {
    onprogress: () => running(),
  });
  call.catch(() => undefined);
  await started;
  assert.match(textOf(await staying.client.callTool({ name: 'probe__was_cancelled', arguments: {} })), /cancelled: 0/);
  await (leaving.client.transport as StreamableHTTPClientTransport).terminateSession();
  await waitFor(
    async () =>
      /cancelled: 1/.test(textOf(await staying.client.callTool({ name: 'probe__was_cancelled', arguments: {} }))),
    5000,
    "the ended session's call to be cancelled at the server",
  );
});

test(
  'progress keeps a call alive past the call timeout; the same call without progress asked times out',
  { timeout: 60_000 },
  async (t) => {
    const { home, gateway } = await probeGateway(['--call-timeout', '1000']);
    const { client } = await connectHttp(gateway.url, gateway.token);
    t.after(async () => {
      await client.close();
      await gateway.stop();
      home.cleanup();
    });
    assert.equal(
      payload(await client.callTool({ name: 'activate_power', arguments: { name: 'probe' } })).status,
      'activated',
    );
    // 10 ticks of 250 ms: 2.5 s in all, far past the 1 s timeout, a progress message every quarter of it.
    const args = { count: 10, every: 250 };
    const progress: number[] = [];
    assert.match(textOf(await client.callTool({ name: 'probe__was_cancelled', arguments: {} })), /cancelled: 0/);
    const ticked = await client.callTool({ name: 'probe__ticks', arguments: args }, undefined, {
      timeout: 30_000,
      onprogress: (event) => void progress.push(event.progress),
    });
    assert.equal(textOf(ticked), 'ticked 10');
    assert.deepEqual(progress, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], "the power's progress, passed on to the agent");
    const silent = await client.callTool({ name: 'probe__ticks', arguments: args }, undefined, { timeout: 30_000 });
    assert.equal(silent.isError, true);
    assert.match(payload(silent).error, /did not answer 'ticks' within 1 s/);
    await waitFor(
      async () => /cancelled: 1/.test(textOf(await client.callTool({ name: 'probe__was_cancelled', arguments: {} }))),
      5000,
      'the timed-out call to be cancelled at the server',
    );
  },
);
