import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { withHashes } from '../../server/powers/hash.js';
import type { PowerSourceKind } from '../../protocol/records.js';
import type { PowerDefinition, ServerSpec } from '../../server/powers/types.js';
import {
  launchCommand,
  launchOrigin,
  LaunchApprovals,
  LaunchChangedError,
} from '../../server/trust/launch-approvals.js';
import { withoutGatewaySecrets } from '../../server/util/gateway-secrets.js';
import { Store } from '../../server/store/store.js';
import { tempStore } from '../helpers/temp-store.js';
import { tempDir } from '../helpers/temp.js';

const workspace = path.resolve('/work/project');
const power = (
  kind: PowerSourceKind,
  file: string,
  server: ServerSpec = { transport: 'stdio', command: 'node', args: ['helper.mjs'], env: {} },
): PowerDefinition =>
  withHashes({
    name: 'helper',
    version: '1',
    description: '',
    keywords: [],
    steering: '',
    server,
    source: { kind, file, readOnly: kind !== 'spell' },
    derivedFromTools: false,
    problems: [],
  });

test("what asks first: workspace spells and every imported config; never the user's own spells or the demo powers", () => {
  const spells = path.join(workspace, '.grimoire');
  assert.equal(launchOrigin(power('spell', path.join(spells, 'helper.spell.yaml')), spells), 'workspace');
  assert.equal(launchOrigin(power('spell', '/home/me/.config/grimoire/helper.spell.yaml'), spells), 'user');
  // A spell folder inside the workspace (a relative spellFolders entry) is the workspace's too: an agent can write there.
  assert.equal(
    launchOrigin(power('spell', path.join(workspace, 'tools', 'spells', 'helper.spell.yaml')), spells),
    'workspace',
  );
  assert.equal(launchOrigin(power('demo', '/pkg/server/demo/powers/memory.spell.yaml'), spells), 'user');
  assert.equal(launchOrigin(power('vscode-mcp', path.join(workspace, '.vscode', 'mcp.json')), spells), 'workspace');
  assert.equal(launchOrigin(power('cursor-mcp', path.join(workspace, '.cursor', 'mcp.json')), spells), 'workspace');
  assert.equal(
    launchOrigin(power('claude-desktop', '/home/me/.config/Claude/claude_desktop_config.json'), spells),
    'imported',
  );
  assert.equal(launchOrigin(power('vscode-mcp', '/home/me/.config/Code/User/mcp.json')), 'imported');
});

test('the command shown: every word, folder and variable, secret values masked; a URL with its header names only', () => {
  const shown = launchCommand({
    transport: 'stdio',
    command: 'node',
    args: ['helper.mjs', 'two words'],
    env: { NODE_OPTIONS: '--require /tmp/x.js', API_TOKEN: 'sekret-value-123' },
    cwd: '/work/project',
  });
  assert.match(
    shown,
    /^node helper\.mjs "two words" \(in \/work\/project\) with NODE_OPTIONS="--require \/tmp\/x\.js" API_TOKEN=/,
  );
  assert.ok(!shown.includes('sekret-value-123'), shown);
  const remote = launchCommand({
    transport: 'http',
    url: 'https://mcp.example.com/mcp',
    headers: { Authorization: 'Bearer abcdefghijk' },
  });
  assert.equal(remote, 'https://mcp.example.com/mcp (headers: Authorization)');
});

test('an approval holds for the exact definition approved: a changed one asks again, a stale approval is refused', async (t) => {
  const store = await tempStore(t);
  const spells = path.join(workspace, '.grimoire');
  const launches = new LaunchApprovals(store.store, { workspaceSpells: spells });
  try {
    const file = path.join(spells, 'helper.spell.yaml');
    const first = power('spell', file);
    const wait = launches.waiting(first);
    assert.ok(wait, 'a workspace spell waits');
    assert.match(
      launches.refusal(first)!,
      /waiting for the user's approval to run.*node helper\.mjs.*grimoire powers approve helper/,
    );
    const changed = power('spell', file, {
      transport: 'stdio',
      command: 'node',
      args: ['helper.mjs', '--exfil'],
      env: {},
    });
    assert.throws(
      () => launches.approve(changed, null, wait.hash),
      LaunchChangedError,
      'the user saw another definition',
    );
    assert.ok(launches.waiting(changed));
    assert.deepEqual(launches.approve(first, 'alice'), wait);
    assert.equal(launches.waiting(first), undefined, 'approved');
    assert.ok(launches.waiting(changed), 'a changed definition asks again');
    assert.equal(
      new LaunchApprovals(store.store, { workspaceSpells: spells, trustAll: true }).waiting(changed),
      undefined,
      '--trust-workspace asks nothing',
    );
  } finally {
    launches.close();
  }
});

test('an approval made a moment ago by another process (the CLI) lets the power start at once, before any poll', async (t) => {
  const home = tempDir();
  const gateway = await Store.open({ dataDir: home.dir, fsync: false });
  const cli = await Store.open({ dataDir: home.dir, fsync: false });
  const spells = path.join(workspace, '.grimoire');
  const launches = new LaunchApprovals(gateway, { workspaceSpells: spells });
  t.after(() => {
    launches.close();
    gateway.close();
    cli.close();
    home.cleanup();
  });
  const helper = power('spell', path.join(spells, 'helper.spell.yaml'));
  assert.ok(launches.waiting(helper));
  const approver = new LaunchApprovals(cli, { workspaceSpells: spells });
  approver.approve(helper);
  approver.close();
  assert.equal(launches.waiting(helper), undefined);
});

test('the environment handed to anything the gateway starts holds none of its own credentials', () => {
  const scrubbed = withoutGatewaySecrets({
    PATH: '/bin',
    GRIMOIRE_ADMIN_TOKEN: 'x',
    GRIMOIRE_DATABASE_URL: 'postgres://u:p@h/db',
    PGPASSWORD: 'p',
    HOME: '/h',
  });
  assert.deepEqual(scrubbed, { PATH: '/bin', HOME: '/h' });
});
