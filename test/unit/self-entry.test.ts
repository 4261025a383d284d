import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { grimoireItself } from '../../server/powers/self-entry.js';
import type { ServerSpec } from '../../server/powers/types.js';
import { repoRoot, tempDir } from '../helpers/temp.js';

const stdio = (command: string, args: string[] = [], cwd?: string): ServerSpec => ({
  transport: 'stdio',
  command,
  args,
  env: {},
  ...(cwd ? { cwd } : {}),
});

test('every way a config runs Grimoire is recognized, by the install it names', () => {
  const cli = path.join(repoRoot, 'out', 'server', 'cli', 'main.js');
  assert.match(grimoireItself(stdio('node', [cli, 'serve', '--stdio']), '/')!, /it starts .*main\.js/);
  assert.match(
    grimoireItself(stdio('node', ['out/server/cli/main.js', 'serve'], repoRoot), '/')!,
    /it starts/,
    'relative to the entry cwd',
  );
  assert.match(
    grimoireItself(stdio('node', ['out\\server\\extension-main.js'], repoRoot), '/')!,
    /it starts/,
    'a Windows path',
  );
  assert.equal(grimoireItself(stdio('C:\\tools\\grimoire.cmd', ['serve']), '/'), "its command is 'grimoire'");
  assert.equal(grimoireItself(stdio('npx', ['-y', 'grimoire', 'serve']), '/'), "it runs the 'grimoire' package");
  assert.equal(
    grimoireItself(stdio('npm', ['exec', '--', 'grimoire@0.1.0', 'serve']), '/'),
    "it runs the 'grimoire' package",
  );
  assert.equal(grimoireItself(stdio('pnpm', ['dlx', 'grimoire']), '/'), "it runs the 'grimoire' package");
  assert.equal(
    grimoireItself(stdio('npx', ['-p', 'grimoire', 'grimoire', 'serve']), '/'),
    "it runs the 'grimoire' package",
  );
});

test('other servers are not taken for Grimoire: another package with the same layout, a package whose name starts alike, a URL', () => {
  const other = tempDir();
  try {
    fs.mkdirSync(path.join(other.dir, 'out', 'server', 'cli'), { recursive: true });
    fs.writeFileSync(path.join(other.dir, 'package.json'), JSON.stringify({ name: 'not-grimoire' }));
    fs.writeFileSync(path.join(other.dir, 'out', 'server', 'cli', 'main.js'), '');
    assert.equal(
      grimoireItself(stdio('node', [path.join(other.dir, 'out', 'server', 'cli', 'main.js')]), '/'),
      undefined,
    );
    assert.equal(grimoireItself(stdio('npx', ['-y', 'grimoire-tools']), '/'), undefined);
    assert.equal(grimoireItself(stdio('npx', ['-y', '@modelcontextprotocol/server-memory']), '/'), undefined);
    assert.equal(
      grimoireItself(stdio('node', ['/nowhere/out/server/cli/main.js']), '/'),
      undefined,
      'no package.json to say so',
    );
    assert.equal(
      grimoireItself({ transport: 'http', url: 'http://127.0.0.1:3001/mcp', headers: {} }, '/'),
      undefined,
      'a URL is checked when listed',
    );
  } finally {
    other.cleanup();
  }
});
