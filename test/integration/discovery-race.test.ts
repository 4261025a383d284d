import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { connectStdio, gatewayEnv, textOf } from '../helpers/gateway-process.js';
import { startRemoteEverything } from '../helpers/remote-everything.js';
import { tempDir, writeSpell } from '../helpers/temp.js';

test(
  'the first call on a fresh catalog waits for discovery instead of failing on the connection it stops',
  { timeout: 90_000 },
  async (t) => {
    const remote = await startRemoteEverything('streamableHttp');
    t.after(() => remote.stop());
    for (let round = 1; round <= 3; round++) {
      const home = tempDir();
      const spells = path.join(home.dir, 'spells');
      writeSpell(
        spells,
        'remote',
        `name: remote\nversion: 1.0.0\ndescription: The reference server over HTTP.\nkeywords: ` +
          `[echo, remote, network]\nserver:\n  transport: http\n  url: ${remote.url}\n`,
      );
      const session = await connectStdio(
        ['--spells', spells, '--no-imports'],
        gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') }),
      );
      try {
        const result = await session.client.callTool({
          name: 'call_tool_read',
          arguments: {
            name: 'remote:echo',
            args: { message: `round ${round}` },
            intent: { operation_type: 'read', reason: 'first call' },
          },
        });
        assert.ok(!result.isError, `round ${round}: ${textOf(result)}`);
        assert.match(textOf(result), new RegExp(`round ${round}`));
      } finally {
        await session.client.close();
        home.cleanup();
      }
    }
  },
);
