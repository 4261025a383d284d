import { test } from 'node:test';
import assert from 'node:assert/strict';
import { electronAsNode, platformSpawn } from '../../server/upstream/children/platform-spawn.js';

const node = { ...process.versions } as NodeJS.ProcessVersions;
const electron = { ...process.versions, electron: '37.0.0' } as NodeJS.ProcessVersions;

for (const platform of ['linux', 'darwin', 'freebsd'] as const) {
  test(`${platform}: children lead groups of their own; the supervisor is one detached /bin/sh`, () => {
    const spawn = platformSpawn(2000, platform, electron);
    assert.equal(spawn.childOptions.detached, true);
    assert.equal(spawn.childOptions.shell, false);
    assert.equal(spawn.supervisor.command, '/bin/sh');
    assert.equal(spawn.supervisor.args[0], '-c');
    assert.equal(spawn.supervisor.args[3], '20', 'grace in tenths of a second');
    assert.equal(spawn.supervisor.options.detached, true);
    assert.equal(spawn.supervisor.options.env?.ELECTRON_RUN_AS_NODE, undefined, 'no Electron variable needed for sh');
    assert.equal(
      spawn.supervisor.options.env?.PATH,
      process.env.PATH,
      "the environment is passed on (without the gateway's credentials)",
    );
  });
}

test('win32: no groups (not detached, hidden windows); the supervisor is Node with ELECTRON_RUN_AS_NODE inside VS Code', () => {
  for (const versions of [node, electron]) {
    const spawn = platformSpawn(1500, 'win32', versions);
    assert.deepEqual(spawn.childOptions, { detached: false, windowsHide: true, shell: false });
    assert.equal(spawn.supervisor.command, process.execPath);
    assert.match(spawn.supervisor.args[0], /child-supervisor-node\.js$/);
    assert.equal(spawn.supervisor.args[1], '1500');
    assert.equal(spawn.supervisor.options.windowsHide, true);
    assert.equal(
      (spawn.supervisor.options.env as Record<string, string>).ELECTRON_RUN_AS_NODE,
      versions.electron ? '1' : process.env.ELECTRON_RUN_AS_NODE,
    );
  }
  assert.deepEqual(electronAsNode(node), {});
  assert.deepEqual(electronAsNode(electron), { ELECTRON_RUN_AS_NODE: '1' });
});
