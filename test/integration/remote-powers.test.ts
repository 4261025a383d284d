import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { connectStdio, gatewayEnv, payload, textOf } from '../helpers/gateway-process.js';
import { startRemoteEverything } from '../helpers/remote-everything.js';
import { tempDir, writeSpell } from '../helpers/temp.js';

const TRANSPORTS = [
  ['http', 'streamableHttp'],
  ['sse', 'sse'],
] as const;

/** A gateway over stdio with one power, `remote`: the real server-everything over `transport`, sent an X-Test-Token header. */
async function gatewayWithRemotePower(transport: 'http' | 'sse', mode: 'streamableHttp' | 'sse') {
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
  const session = await connectStdio(
    ['--spells', spells, '--no-imports'],
    gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') }, { REMOTE_TOKEN: 'abc123' }),
  );
  const activated = payload(await session.client.callTool({ name: 'activate_power', arguments: { name: 'remote' } }));
  return {
    session,
    activated,
    close: async () => {
      await session.client.close();
      remote.stop();
      home.cleanup();
    },
  };
}

for (const [transport, mode] of TRANSPORTS) {
  test(`a power over ${transport}: the gateway's client reaches a real remote server`, async () => {
    const { session, activated, close } = await gatewayWithRemotePower(transport, mode);
    try {
      assert.equal(activated.status, 'activated', JSON.stringify(activated));
      const echoed = await session.client.callTool({
        name: 'remote__echo',
        arguments: { message: `via ${transport}` },
      });
      assert.match(textOf(echoed), new RegExp(`via ${transport}`));
    } finally {
      await close();
    }
  });

  test(`thousands of calls to a power over ${transport} leave no listeners piling up in the gateway`, async () => {
    const CALLS = 2_000;
    const AT_A_TIME = 20;
    const { session, activated, close } = await gatewayWithRemotePower(transport, mode);
    try {
      assert.equal(activated.status, 'activated', JSON.stringify(activated));
      let next = 0;
      const lane = async () => {
        while (next < CALLS) {
          const n = next++;
          const echoed = await session.client.callTool({ name: 'remote__echo', arguments: { message: `call ${n}` } });
          assert.match(textOf(echoed), new RegExp(`call ${n}\\b`));
        }
      };
      await Promise.all(Array.from({ length: AT_A_TIME }, lane));
      const stderr = session.stderr.join('');
      assert.doesNotMatch(stderr, /MaxListenersExceededWarning|memory leak/, stderr.slice(0, 2_000));
    } finally {
      await close();
    }
  });
}
