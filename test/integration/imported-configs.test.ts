import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connectStdio, gatewayEnv, payload, textOf } from '../helpers/gateway-process.js';
import { cliPath, fixtureServer, repoRoot, tempDir } from '../helpers/temp.js';

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

test(
  "every config a user has: a Kiro power folder, Cursor's, VS Code's and Claude's mcp.json; one server in two configs is one power",
  { timeout: 60_000 },
  async () => {
    const home = tempDir();
    const config = path.join(home.dir, '.config');
    const workspace = path.join(home.dir, 'ws');
    const unstable = { command: process.execPath, args: [fixtureServer('unstable-server')] };
    const everything = {
      command: process.execPath,
      args: [
        path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js'),
        'stdio',
      ],
    };
    write(
      path.join(home.dir, '.kiro', 'powers', 'reference', 'POWER.md'),
      [
        '---',
        'name: "reference"',
        'displayName: "MCP reference server"',
        'description: "Echo, sums, sample prompts and resources of the MCP reference server"',
        'keywords: ["echo", "sum", "reference", "prompts"]',
        '---',
        'Use echo to check the connection before anything else.',
      ].join('\n'),
    );
    write(
      path.join(home.dir, '.kiro', 'powers', 'reference', 'mcp.json'),
      JSON.stringify({ mcpServers: { everything } }),
    );
    write(path.join(workspace, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { 'cursor unstable': unstable } }));
    // The same server in VS Code's and Claude's configs: one power, no warning.
    write(
      path.join(config, 'Code', 'User', 'mcp.json'),
      JSON.stringify({ servers: { shared: { type: 'stdio', ...unstable } } }),
    );
    write(
      path.join(config, 'Claude', 'claude_desktop_config.json'),
      JSON.stringify({ mcpServers: { shared: unstable } }),
    );

    const env = gatewayEnv(
      { home: home.dir, data: path.join(home.dir, 'data') },
      { XDG_CONFIG_HOME: config, GRIMOIRE_LOG: 'warn' },
    );
    const listed = execFileSync(process.execPath, [cliPath, 'powers', 'list', '--json', '--workspace', workspace], {
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const powers = JSON.parse(listed).powers as Array<{ name: string; source: string; description: string }>;
    const byName = new Map(powers.map((p) => [p.name, p]));
    assert.equal(byName.get('reference')?.source, 'kiro-power');
    assert.match(byName.get('reference')!.description, /^MCP reference server: Echo, sums/);
    assert.equal(byName.get('cursor-unstable')?.source, 'cursor-mcp');
    assert.equal(byName.get('shared')?.source, 'vscode-mcp');
    assert.equal(powers.filter((p) => p.name === 'shared').length, 1);
    for (const power of powers) assert.ok(!/Imported from/.test(power.description), power.description);
    // Imported servers run once the user approved their launch, as they would on the command line.
    assert.ok(
      (byName.get('reference') as { awaitingLaunch?: unknown }).awaitingLaunch,
      'the imported power waits for approval',
    );
    execFileSync(process.execPath, [cliPath, 'powers', 'approve', 'reference', '--workspace', workspace], {
      env,
      stdio: 'ignore',
    });

    const session = await connectStdio(['--workspace', workspace], env);
    try {
      assert.ok(
        !session.stderr.join('').includes('is ignored'),
        `no warning for the shared server: ${session.stderr.join('')}`,
      );
      const activated = payload(
        await session.client.callTool({ name: 'activate_power', arguments: { name: 'reference' } }),
      );
      assert.equal(activated.status, 'activated', JSON.stringify(activated));
      assert.match(
        String(activated.guidance ?? ''),
        /Use echo to check the connection/,
        'the POWER.md body is the steering, given once with the activation',
      );
      assert.ok((await session.client.listTools()).tools.some((tool) => tool.name === 'reference__echo'));
      const echoed = await session.client.callTool({
        name: 'reference__echo',
        arguments: { message: 'from a Kiro power' },
      });
      assert.match(textOf(echoed), /from a Kiro power/);
    } finally {
      await session.client.close();
      home.cleanup();
    }
  },
);
