import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { approveLaunches, connectStdio, gatewayEnv, payload, startHttpGateway } from '../helpers/gateway-process.js';
import { cliPath, repoRoot, tempDir } from '../helpers/temp.js';

const sqlite = path.join(repoRoot, 'node_modules', 'mcp-sqlite', 'mcp-sqlite-server.js');

function claudeConfig(configDir: string, servers: Record<string, unknown>): void {
  const file = path.join(configDir, 'Claude', 'claude_desktop_config.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ mcpServers: servers }));
}

test(
  'a Claude Desktop config that names Grimoire beside its servers: ' +
    'every way of running Grimoire is skipped with an info line, the other server is imported',
  { timeout: 60_000 },
  () => {
    const home = tempDir();
    try {
      const config = path.join(home.dir, '.config');
      claudeConfig(config, {
        grimoire: { command: process.execPath, args: [cliPath, 'serve', '--stdio'] },
        'grimoire-bin': { command: '/usr/local/bin/grimoire', args: ['serve', '--stdio'] },
        'grimoire-npx': { command: 'npx', args: ['-y', 'grimoire@latest', 'serve', '--stdio'] },
        'grimoire-extension': {
          command: process.execPath,
          args: [path.join(repoRoot, 'out', 'server', 'extension-main.js'), '--stdio'],
        },
        sqlite: { command: process.execPath, args: [sqlite, path.join(home.dir, 'db.sqlite')] },
      });
      const env = gatewayEnv(
        { home: home.dir, data: path.join(home.dir, 'data') },
        { XDG_CONFIG_HOME: config, GRIMOIRE_LOG: 'info' },
      );
      const listed = spawnSync(process.execPath, [cliPath, 'powers', 'list', '--json'], { env, encoding: 'utf8' });
      assert.equal(listed.status, 0, listed.stderr);
      const names = (JSON.parse(listed.stdout).powers as Array<{ name: string }>).map((p) => p.name);
      assert.deepEqual(names, ['sqlite']);
      const stderr = listed.stderr;
      for (const name of ['grimoire', 'grimoire-bin', 'grimoire-npx', 'grimoire-extension']) {
        assert.match(
          stderr,
          new RegExp(`"${name}" is not imported: it runs Grimoire itself`),
          `an info line for ${name}: ${stderr}`,
        );
      }
      assert.doesNotMatch(stderr, /"sqlite" is not imported/);
    } finally {
      home.cleanup();
    }
  },
);

test(
  'a config entry with the URL of a running Grimoire: the gateway meets itself at listing, leaves the power out and never ranks it',
  { timeout: 60_000 },
  async () => {
    const home = tempDir();
    const outer = await startHttpGateway(
      ['--no-imports'],
      gatewayEnv({ home: path.join(home.dir, 'outer'), data: path.join(home.dir, 'outer-data') }),
    );
    const config = path.join(home.dir, '.config');
    claudeConfig(config, {
      gateway: { url: outer.url, headers: { Authorization: `Bearer ${outer.token}` } },
      sqlite: { command: process.execPath, args: [sqlite, path.join(home.dir, 'db.sqlite')] },
    });
    fs.mkdirSync(path.join(home.dir, 'inner'), { recursive: true });
    const inner = gatewayEnv(
      { home: path.join(home.dir, 'inner'), data: path.join(home.dir, 'inner-data') },
      { XDG_CONFIG_HOME: config, GRIMOIRE_LOG: 'info' },
    );
    // The user approved both imported launches: the entry is left out for being Grimoire, not for waiting.
    approveLaunches(inner, ['gateway', 'sqlite']);
    const session = await connectStdio([], inner);
    try {
      const activated = payload(
        await session.client.callTool({ name: 'activate_power', arguments: { name: 'gateway' } }),
      );
      assert.notEqual(activated.status, 'activated', JSON.stringify(activated));
      const answer = payload(
        await session.client.callTool({
          name: 'resolve_intent',
          arguments: { query: 'resolve an intent with the MCP gateway, activate a power' },
        }),
      );
      assert.ok(!JSON.stringify(answer).includes('"gateway'), JSON.stringify(answer));
      assert.match(session.stderr.join(''), /'gateway' is left out: its server is Grimoire itself/);
    } finally {
      await session.client.close();
      await outer.stop();
      home.cleanup();
    }
  },
);
