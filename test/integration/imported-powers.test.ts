import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connectStdio, gatewayEnv, payload, waitFor } from '../helpers/gateway-process.js';
import { cliPath, fixtureServer, tempDir } from '../helpers/temp.js';

test('a workspace .vscode/mcp.json server becomes a read-only power described by its tools', async () => {
  const home = tempDir();
  const workspace = path.join(home.dir, 'ws');
  fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
  fs.writeFileSync(
    path.join(workspace, '.vscode', 'mcp.json'),
    `{
  // a comment, as VS Code allows
  "servers": {
    "Unstable Test": { "type": "stdio", "command": ${JSON.stringify(process.execPath)}, "args": ` +
      `[${JSON.stringify(fixtureServer('unstable-server'))}] },
  },
}`,
  );
  const env = gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') });
  // A workspace's server runs once the user approved its launch, as they would on the command line.
  execFileSync(process.execPath, [cliPath, 'powers', 'approve', 'unstable-test', '--workspace', workspace], {
    env,
    stdio: 'ignore',
  });
  const session = await connectStdio(['--workspace', workspace], env);
  try {
    // Discovery lists the imported server's tools in the background; then its words come from them.
    await waitFor(
      async () => {
        const result = payload(await session.client.callTool({ name: 'resolve_intent', arguments: { query: 'zzz' } }));
        const power = result.powers?.find((p: { name: string }) => p.name === 'unstable-test');
        return Boolean(power && !/not listed yet/.test(power.description));
      },
      15_000,
      'the imported power to be described by its tools',
    );

    const listed = JSON.parse(
      execFileSync(process.execPath, [cliPath, 'powers', 'list', '--json', '--workspace', workspace], {
        env,
        encoding: 'utf8',
      }),
    );
    const imported = listed.powers.find((p: { name: string }) => p.name === 'unstable-test');
    assert.equal(imported.source, 'vscode-mcp');
    assert.equal(imported.tools, 5);
    assert.match(
      imported.description,
      /^unstable-test: 5 tools about /,
      'one sentence about the server, from its tools',
    );

    const activated = payload(
      await session.client.callTool({ name: 'activate_power', arguments: { name: 'unstable-test' } }),
    );
    assert.equal(activated.status, 'activated');
  } finally {
    await session.client.close();
    home.cleanup();
  }
});
