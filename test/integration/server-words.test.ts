import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describePower } from '../../server/gateway/power-documents.js';
import { createRuntime } from '../../server/runtime.js';
import { everythingEntry } from '../helpers/everything-spell.js';
import { gatewayEnv } from '../helpers/gateway-process.js';
import { tempDir } from '../helpers/temp.js';

/**
 * The real server-everything, imported from a workspace's .vscode/mcp.json (no description, no
 * steering of its own): what it says of itself at initialize (serverInfo.title, instructions)
 * reaches the catalog, describes the power and guides the agent, and survives a restart.
 */
test(
  "an imported server's own words: its title leads its description, its instructions are its steering, " +
    'kept in the catalog',
  async () => {
    const home = tempDir();
    const workspace = path.join(home.dir, 'ws');
    fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
    fs.writeFileSync(
      path.join(workspace, '.vscode', 'mcp.json'),
      JSON.stringify({
        servers: { everything: { type: 'stdio', command: process.execPath, args: [everythingEntry, 'stdio'] } },
      }),
    );
    const env = gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') });
    try {
      let runtime = await createRuntime({ env, demo: false, workspaceFolder: workspace });
      try {
        assert.equal(runtime.parts.tools.power('everything')!.steering, '', 'no steering before its server was listed');
        // A workspace's server runs once the user approved its launch (what the editor's modal does).
        assert.ok(runtime.gateway.ports.launches.approve(runtime.parts.tools.power('everything')!));
        runtime.gateway.ports.discoverUnknownPowers();
        await runtime.parts.discovery.idle();
        assert.match(
          runtime.parts.tools.power('everything')!.steering,
          /get-roots-list/,
          'its instructions once it was listed',
        );
      } catch (error) {
        await runtime.close();
        throw error;
      }
      await runtime.close();

      runtime = await createRuntime({ env, demo: false, workspaceFolder: workspace });
      try {
        const power = runtime.parts.tools.power('everything')!;
        assert.equal(power.serverWords?.title, 'Everything Reference Server');
        assert.match(power.steering, /get-roots-list/, "the server's instructions, read back from the store");
        const { description } = describePower(power, runtime.parts.tools.toolsOf('everything'));
        assert.match(description, /^Everything Reference Server: 13 tools about /);
      } finally {
        await runtime.close();
      }
    } finally {
      home.cleanup();
    }
  },
);
