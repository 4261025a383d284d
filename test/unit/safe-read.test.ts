import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { loadSettingsFile } from '../../server/config/settings.js';
import { importVscodeMcp } from '../../server/powers/import-vscode.js';
import { readTextFile } from '../../shared/safe-read.js';
import { tempDir } from '../helpers/temp.js';

const { dir, cleanup } = tempDir('grimoire-safe-read-');
after(cleanup);
const limits = { fileBytes: 1024, fileReadTimeoutMs: 2000 };

function fifo(name: string): string {
  const file = path.join(dir, name);
  execFileSync('mkfifo', [file]);
  return file;
}

test('a regular file under the limit is read whole', () => {
  const file = path.join(dir, 'ok.txt');
  fs.writeFileSync(file, 'héllo\n');
  assert.deepEqual(readTextFile(file, limits), { ok: true, text: 'héllo\n' });
});

test('a symlink to a regular file is followed', () => {
  const target = path.join(dir, 'target.txt');
  fs.writeFileSync(target, 'linked');
  fs.symlinkSync(target, path.join(dir, 'link.txt'));
  assert.deepEqual(readTextFile(path.join(dir, 'link.txt'), limits), { ok: true, text: 'linked' });
});

test('a FIFO is refused at once, without waiting for a writer', () => {
  const read = readTextFile(fifo('pipe.spell.yaml'), limits);
  assert.equal(read.ok, false);
  assert.ok(!read.ok && read.reason === 'not-a-file');
  assert.match(!read.ok ? read.message : '', /named pipe \(FIFO\), not a regular file/);
});

test('a symlink to /dev/zero is refused and named as such', () => {
  const link = path.join(dir, 'zero.spell.yaml');
  fs.symlinkSync('/dev/zero', link);
  const read = readTextFile(link, limits);
  assert.ok(!read.ok && read.reason === 'not-a-file');
  assert.match(!read.ok ? read.message : '', /symbolic link to \/dev\/zero \(a character device\)/);
});

test('a folder is refused', () => {
  const read = readTextFile(dir, limits);
  assert.ok(!read.ok && read.reason === 'not-a-file');
});

test('a file over the limit is refused with its size and the setting to raise', () => {
  const file = path.join(dir, 'big.txt');
  fs.writeFileSync(file, 'x'.repeat(3 * 1024 * 1024));
  const read = readTextFile(file, limits);
  assert.ok(!read.ok && read.reason === 'too-large');
  assert.match(!read.ok ? read.message : '', /the file is 3\.0 MB; the limit is 1 KB/);
  assert.match(!read.ok ? read.fix : '', /limits\.fileBytes/);
});

test('a missing file is reported as missing', () => {
  const read = readTextFile(path.join(dir, 'none.txt'), limits);
  assert.ok(!read.ok && read.reason === 'missing');
});

test('imported configs and settings.json go through the same checks', () => {
  const config = fifo('mcp.json');
  const imported = importVscodeMcp(config, { env: {}, limits });
  assert.deepEqual(imported.powers, []);
  assert.match(imported.issues[0]?.message ?? '', /named pipe/);

  const settings = fifo('settings.json');
  const loaded = loadSettingsFile(settings);
  assert.equal(loaded.settings.limits.fileBytes, 256 * 1024, 'defaults are used');
  assert.match(loaded.problems[0] ?? '', /named pipe .*using default settings/);
});
