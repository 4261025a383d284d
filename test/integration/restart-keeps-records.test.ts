import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { connectStdio, gatewayEnv, payload, waitFor, isAlive } from '../helpers/gateway-process.js';
import { cliPath, tempDir } from '../helpers/temp.js';

test('kill -9 of the gateway, then a restart, still has every catalog record', async () => {
  const home = tempDir();
  const env = gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') });
  try {
    const session = await connectStdio(['--demo', '--no-imports'], env);
    for (const name of ['memory', 'everything']) {
      const activated = payload(await session.client.callTool({ name: 'activate_power', arguments: { name } }));
      assert.equal(activated.status, 'activated');
    }
    const { tools } = await session.client.listTools();
    const exposed = tools.filter((t) => t.name.includes('__')).length;
    assert.ok(exposed >= 15, `exposed ${exposed} tools`);
    process.kill(session.pid!, 'SIGKILL');
    await waitFor(() => !isAlive(session.pid!), 5000, 'gateway to die');
    await session.client.close().catch(() => undefined);

    const listed = JSON.parse(
      execFileSync(process.execPath, [cliPath, 'powers', 'list', '--json', '--demo', '--no-imports'], {
        env,
        encoding: 'utf8',
      }),
    );
    const counts = Object.fromEntries(listed.powers.map((p: { name: string; tools: number }) => [p.name, p.tools]));
    assert.equal(counts.memory + counts.everything, exposed, `catalog after restart: ${JSON.stringify(counts)}`);
  } finally {
    home.cleanup();
  }
});
