import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { connectStdio, gatewayEnv, payload, textOf } from '../helpers/gateway-process.js';
import { startRemoteEverything } from '../helpers/remote-everything.js';
import { tempDir, writeSpell } from '../helpers/temp.js';

for (const [transport, mode] of [['http', 'streamableHttp'], ['sse', 'sse']] as const) {
  test(`a power over ${transport}: the gateway's client reaches a real remote server`, async () => {
    const remote = await startRemoteEverything(mode);
    const home = tempDir();
    const spells = path.join(home.dir, 'spells');
    writeSpell(
      spells,
      'remote',
      `name: remote
version: 1.0.0
description: The reference server reached over the network.
keywords: [echo, remote, network]
server:
  transport: ${transport}
  url: ${remote.url}
  headers:
    X-Test-Token: \${REMOTE_TOKEN}
`,
    );
    const session = await connectStdio(['--spells', spells, '--no-imports'], gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') }, { REMOTE_TOKEN: 'abc123' }));
    try {
      const activated = payload(await session.client.callTool({ name: 'activate_power', arguments: { name: 'remote' } }));
      assert.equal(activated.status, 'activated', JSON.stringify(activated));
      const echoed = await session.client.callTool({ name: 'remote__echo', arguments: { message: `via ${transport}` } });
      assert.match(textOf(echoed), new RegExp(`via ${transport}`));
    } finally {
      await session.client.close();
      remote.stop();
      home.cleanup();
    }
  });
}
