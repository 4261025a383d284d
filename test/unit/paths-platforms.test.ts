import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolvePaths, type PathsHost } from '../../shared/grimoire-paths.js';

/** A fake host: the platform and home folder as given, with only the listed folders existing (no real file system is read). */
const host = (platform: NodeJS.Platform, homedir: string, existing: string[] = []): PathsHost => ({
  platform,
  homedir,
  exists: (folder) => existing.includes(folder),
});

test('platform matrix: where spells/settings and data go when nothing is set and there is no ~/.grimoire', () => {
  const cases: Array<{
    platform: NodeJS.Platform;
    homedir: string;
    env: NodeJS.ProcessEnv;
    home: string;
    data: string;
  }> = [
    {
      platform: 'linux',
      homedir: '/home/ann',
      env: {},
      home: '/home/ann/.config/grimoire',
      data: '/home/ann/.local/share/grimoire',
    },
    {
      platform: 'linux',
      homedir: '/home/ann',
      env: { XDG_CONFIG_HOME: '/cfg', XDG_DATA_HOME: '/xdg/data' },
      home: '/cfg/grimoire',
      data: '/xdg/data/grimoire',
    },
    {
      platform: 'linux',
      homedir: '/home/ann',
      env: { XDG_CONFIG_HOME: 'relative/cfg', XDG_DATA_HOME: '' },
      home: '/home/ann/.config/grimoire',
      data: '/home/ann/.local/share/grimoire',
    },
    {
      platform: 'freebsd',
      homedir: '/usr/home/ann',
      env: {},
      home: '/usr/home/ann/.config/grimoire',
      data: '/usr/home/ann/.local/share/grimoire',
    },
    {
      platform: 'darwin',
      homedir: '/Users/ann',
      env: { XDG_DATA_HOME: '/ignored' },
      home: '/Users/ann/Library/Application Support/Grimoire',
      data: '/Users/ann/Library/Application Support/Grimoire/data',
    },
    {
      platform: 'win32',
      homedir: 'C:\\Users\\Ann',
      env: { APPDATA: 'D:\\Profiles\\Ann\\Roaming', LOCALAPPDATA: 'C:\\Users\\Ann\\AppData\\Local' },
      home: 'D:\\Profiles\\Ann\\Roaming\\Grimoire',
      data: 'C:\\Users\\Ann\\AppData\\Local\\Grimoire',
    },
    {
      platform: 'win32',
      homedir: 'C:\\Users\\Ann',
      env: {},
      home: 'C:\\Users\\Ann\\AppData\\Roaming\\Grimoire',
      data: 'C:\\Users\\Ann\\AppData\\Local\\Grimoire',
    },
  ];
  for (const c of cases) {
    const paths = resolvePaths(c.env, undefined, host(c.platform, c.homedir));
    assert.deepEqual(
      { home: paths.home, data: paths.data },
      { home: c.home, data: c.data },
      `${c.platform} ${JSON.stringify(c.env)}`,
    );
  }
});

test('an existing ~/.grimoire is kept on every platform, with its data folder inside', () => {
  for (const [platform, homedir, legacy] of [
    ['linux', '/home/ann', '/home/ann/.grimoire'],
    ['darwin', '/Users/ann', '/Users/ann/.grimoire'],
    ['win32', 'C:\\Users\\Ann', 'C:\\Users\\Ann\\.grimoire'],
  ] as const) {
    const paths = resolvePaths(
      { XDG_DATA_HOME: '/xdg', APPDATA: 'C:\\Roaming' },
      undefined,
      host(platform, homedir, [legacy]),
    );
    const sep = platform === 'win32' ? '\\' : '/';
    assert.deepEqual({ home: paths.home, data: paths.data }, { home: legacy, data: `${legacy}${sep}data` }, platform);
  }
});

test('GRIMOIRE_HOME and GRIMOIRE_DATA win over everything; the workspace spell folder is its .grimoire', () => {
  const linux = host('linux', '/home/ann', ['/home/ann/.grimoire']);
  assert.deepEqual(resolvePaths({ GRIMOIRE_HOME: '/opt/g' }, '/work/p', linux), {
    home: '/opt/g',
    data: '/opt/g/data',
    workspaceSpells: '/work/p/.grimoire',
  });
  assert.deepEqual(resolvePaths({ GRIMOIRE_DATA: '/var/g' }, undefined, linux), {
    home: '/home/ann/.grimoire',
    data: '/var/g',
    workspaceSpells: undefined,
  });
  assert.deepEqual(resolvePaths({ GRIMOIRE_DATA: '/var/g' }, undefined, host('linux', '/home/ann')), {
    home: '/home/ann/.config/grimoire',
    data: '/var/g',
    workspaceSpells: undefined,
  });
  const win = resolvePaths({ GRIMOIRE_HOME: 'E:\\grimoire' }, 'C:\\src\\proj', host('win32', 'C:\\Users\\Ann'));
  assert.deepEqual(win, {
    home: 'E:\\grimoire',
    data: 'E:\\grimoire\\data',
    workspaceSpells: 'C:\\src\\proj\\.grimoire',
  });
});
