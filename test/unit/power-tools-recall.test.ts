/**
 * A tool list recalled by launch definition (a power never listed under its name) ranks the power
 * at once, and nothing else: the power is not listed, so activation, calls and read candidates
 * wait for its own server's listing. Real store, catalog, registry from a spell, and the unstable
 * test server as the power's process.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { Catalog } from '../../server/catalog/catalog.js';
import { PowerTools } from '../../server/catalog/power-tools.js';
import { ServerToolLists } from '../../server/catalog/server-tool-lists.js';
import { defaultSettings } from '../../server/config/settings.js';
import { PowerRegistry } from '../../server/powers/registry.js';
import { Store } from '../../server/store/store.js';
import { ToolTrust } from '../../server/trust/tool-trust.js';
import { UpstreamManager } from '../../server/upstream/manager.js';
import { tempDir, unstableSpell, writeSpell } from '../helpers/temp.js';

test('a tool list recalled by launch definition ranks a never-listed power, but does not count as its listing', async () => {
  const temp = tempDir();
  const store = await Store.open({ dataDir: path.join(temp.dir, 'data'), fsync: false });
  const spells = path.join(temp.dir, 'spells');
  writeSpell(spells, 'renamed', unstableSpell('renamed'));
  const registry = new PowerRegistry({ spellDirs: [spells], importFiles: [], env: process.env });
  registry.load();
  const manager = new UpstreamManager({
    callTimeoutMs: 5000,
    startTimeoutMs: 5000,
    restart: { maxAttempts: 0, baseDelayMs: 10 },
    idle: { mode: 'never', minutes: 0, turns: 0 },
    maxMessageBytes: 1 << 20,
  });
  const trust = new ToolTrust(store);
  try {
    const power = registry.snapshot().powers.find((p) => p.name === 'renamed')!;
    // The same launch definition listed earlier under another name.
    const lists = new ServerToolLists(store);
    lists.remember(
      power.serverHash,
      [{ name: 'recalled_only', description: 'A tool the list had then.', inputSchema: { type: 'object' } }],
      { title: 'Unstable' },
    );
    const tools = new PowerTools({
      registry,
      manager,
      catalog: new Catalog(store),
      lists,
      trust,
      settings: defaultSettings(),
    });
    tools.powers();

    assert.deepEqual(
      tools.rankingToolsOf('renamed').map((t) => t.name),
      ['recalled_only'],
      'ranked on the recalled list',
    );
    assert.equal(tools.rankable('renamed'), true);
    assert.equal(tools.listed('renamed'), false, 'a recalled list is not a listing');
    assert.deepEqual(tools.toolsOf('renamed'), [], 'calls and read candidates see no tool before the listing');
    assert.equal(tools.configuredTools(() => true)[0].listed, false);

    // ensureTools lists the power's own server: its tools, not the recalled ones.
    const listed = await tools.ensureTools('renamed');
    assert.ok(
      listed.length > 0 && !listed.some((t) => t.name === 'recalled_only'),
      JSON.stringify(listed.map((t) => t.name)),
    );
    assert.equal(tools.listed('renamed'), true);
    assert.deepEqual(tools.rankingToolsOf('renamed'), listed);
  } finally {
    trust.close();
    registry.close();
    await manager.shutdown();
    await store.close();
    temp.cleanup();
  }
});
