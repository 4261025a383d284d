import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { commandExists, findCommand, type CommandLookup } from '../../server/util/command-lookup.js';
import { tempDir } from '../helpers/temp.js';

/**
 * A FAKE Windows file system (no Windows machine here): a set of files whose names compare
 * ignoring case, as NTFS does. Every file counts as runnable there; the extension decides.
 */
function fakeWindowsFiles(...files: string[]): CommandLookup['isRunnable'] {
  const present = new Set(files.map((file) => file.toLowerCase()));
  return (file) => present.has(file.toLowerCase());
}

const windows = (pathEnv: string, files: string[], extra: Partial<CommandLookup> = {}): CommandLookup => ({
  platform: 'win32',
  pathEnv,
  pathExt: '.COM;.EXE;.BAT;.CMD',
  cwd: 'C:\\work',
  isRunnable: fakeWindowsFiles(...files),
  ...extra,
});

test('Windows: PATHEXT finds npx.cmd and node.exe; the bare name only with a known extension', () => {
  const lookup = windows('C:\\tools;"C:\\Program Files\\nodejs"', [
    'C:\\Program Files\\nodejs\\npx.cmd',
    'C:\\Program Files\\nodejs\\node.exe',
    'C:\\tools\\script.ps1',
    'C:\\tools\\npx',
  ]);
  assert.equal(
    findCommand('npx', lookup)?.toLowerCase(),
    'c:\\program files\\nodejs\\npx.cmd',
    'a file named just npx is not run on Windows',
  );
  assert.equal(findCommand('npx.cmd', lookup)?.toLowerCase(), 'c:\\program files\\nodejs\\npx.cmd');
  assert.equal(findCommand('NODE', lookup)?.toLowerCase(), 'c:\\program files\\nodejs\\node.exe', 'names ignore case');
  assert.equal(findCommand('script', lookup), undefined, '.ps1 is not in PATHEXT');
  assert.equal(findCommand('script.ps1', lookup), undefined);
  assert.equal(findCommand('script', { ...lookup, pathExt: '.EXE;.PS1' })?.toLowerCase(), 'c:\\tools\\script.ps1');
});

test('Windows: PATHEXT unset falls back to .EXE;.CMD;.BAT;.COM; the current folder comes first; paths take PATHEXT too', () => {
  const files = ['C:\\work\\uvx.bat', 'C:\\bin\\uvx.exe', 'D:\\apps\\server.cmd'];
  const lookup = windows('C:\\bin', files, { pathExt: undefined });
  assert.equal(
    findCommand('uvx', lookup)?.toLowerCase(),
    'c:\\work\\uvx.bat',
    'cwd before PATH, as cmd.exe and cross-spawn do',
  );
  assert.equal(findCommand('uvx', { ...lookup, cwd: 'C:\\elsewhere' })?.toLowerCase(), 'c:\\bin\\uvx.exe');
  assert.equal(findCommand('D:\\apps\\server', lookup)?.toLowerCase(), 'd:\\apps\\server.cmd');
  assert.equal(
    findCommand('D:/apps/server', lookup)?.toLowerCase(),
    'd:\\apps\\server.cmd',
    'forward slashes are separators on Windows',
  );
  assert.equal(findCommand('missing', lookup), undefined);
});

for (const platform of ['linux', 'darwin'] as const) {
  test(`${platform}: PATH with ':', the executable bit decides, PATHEXT is ignored`, () => {
    const a = tempDir();
    const b = tempDir();
    try {
      fs.writeFileSync(path.join(a.dir, 'tool'), '#!/bin/sh\n', { mode: 0o644 });
      fs.writeFileSync(path.join(b.dir, 'tool'), '#!/bin/sh\n', { mode: 0o755 });
      fs.writeFileSync(path.join(b.dir, 'npx.cmd'), '@echo off\n', { mode: 0o755 });
      const lookup: CommandLookup = { platform, pathEnv: `${a.dir}:${b.dir}`, pathExt: '.CMD' };
      assert.equal(
        findCommand('tool', lookup),
        path.join(b.dir, 'tool'),
        'the non-executable file earlier on PATH is skipped',
      );
      assert.equal(findCommand('npx', lookup), undefined);
      assert.equal(findCommand(path.join(a.dir, 'tool'), lookup), undefined);
      assert.equal(findCommand(path.join(b.dir, 'tool'), lookup), path.join(b.dir, 'tool'));
      assert.equal(findCommand('tool', { platform, pathEnv: a.dir }), undefined);
    } finally {
      a.cleanup();
      b.cleanup();
    }
  });
}

test('availability is checked again when PATH changes and when the command is installed', (t) => {
  // The once-a-second check runs on node:test's fake clock; the files and folders are real.
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const dir = tempDir();
  const other = tempDir();
  try {
    const lookup: CommandLookup = { platform: process.platform, pathEnv: dir.dir, cwd: dir.dir };
    assert.equal(commandExists('late-tool', lookup), false);
    const file = path.join(other.dir, 'late-tool');
    fs.writeFileSync(file, '#!/bin/sh\n', { mode: 0o755 });
    assert.equal(
      commandExists('late-tool', { ...lookup, pathEnv: `${dir.dir}${path.delimiter}${other.dir}` }),
      true,
      'a new PATH is looked up at once',
    );
    fs.copyFileSync(file, path.join(dir.dir, 'late-tool'));
    fs.chmodSync(path.join(dir.dir, 'late-tool'), 0o755);
    t.mock.timers.tick(1100);
    assert.equal(commandExists('late-tool', lookup), true, 'installed into a PATH folder: seen within a second');
    fs.rmSync(path.join(dir.dir, 'late-tool'));
    t.mock.timers.tick(1100);
    assert.equal(commandExists('late-tool', lookup), false, 'removed: seen within a second');
  } finally {
    dir.cleanup();
    other.cleanup();
  }
});
