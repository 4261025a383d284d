import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { createRuntime, type Runtime } from '../../server/runtime.js';
import { gatewayEnv, waitFor } from '../helpers/gateway-process.js';
import { tempDir } from '../helpers/temp.js';

/** Learning the user's words end to end: the demo memory server as a real child, the gateway in process. */
let home: { dir: string; cleanup: () => void };
let runtime: Runtime;

before(async () => {
  home = tempDir();
  runtime = await createRuntime({
    env: gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') }),
    demo: true,
    imports: false,
  });
});

after(async () => {
  await runtime.close();
  home.cleanup();
});

const learnedFor = (power: string) =>
  runtime.parts.learned
    .documents()
    .powers.get(power)
    ?.map((l) => l.text) ?? [];

test('a request that led to a successful call is learned and resolves to the same power next time', async () => {
  const gateway = runtime.gateway;
  const query = 'jot down that the sprint review moved to Friday';
  await gateway.ports.resolve(query, { sessionId: 'learn-1' });
  await gateway.ports.activate('memory', 'learn-1');
  const result = await gateway.callTool('memory__search_nodes', { query: 'sprint review' }, { sessionId: 'learn-1' });
  assert.notEqual(result.isError, true, JSON.stringify(result));
  await waitFor(() => learnedFor('memory').includes(query), 5000, 'the request learned for memory');
  const again = await gateway.ports.resolve('Jot down that the sprint review moved to Friday.');
  assert.equal(again.ranked[0].name, 'memory', JSON.stringify(again.ranked.slice(0, 2)));
  assert.equal(again.ranked[0].matchType, 'learned');
});

test('a failed call teaches nothing', async () => {
  const gateway = runtime.gateway;
  const query = 'scribble the quarterly numbers somewhere';
  await gateway.ports.resolve(query, { sessionId: 'learn-2' });
  await gateway.ports.activate('memory', 'learn-2');
  const result = await gateway.callTool('memory__search_nodes', { query: 42 }, { sessionId: 'learn-2' });
  assert.equal(result.isError, true, JSON.stringify(result));
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.ok(!learnedFor('memory').includes(query));
});
