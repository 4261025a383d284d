import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readPrivateFile } from '../../shared/private-file.js';
import { readSecret } from '../../shared/secret-files.js';
import { adminToken } from '../../server/cli/admin-token.js';
import { tempDir } from '../helpers/temp.js';

const posix = process.platform === 'win32' && 'POSIX modes and FIFOs';

test(
  'a private file is read only when it is a regular file of this user that no one else may read, within its size',
  { skip: posix },
  (t) => {
    const home = tempDir();
    t.after(() => home.cleanup());
    const file = path.join(home.dir, 'key');
    fs.writeFileSync(file, 'abc\n', { mode: 0o600 });
    assert.deepEqual(readPrivateFile(file, 4, false), { ok: true, text: 'abc\n' });
    assert.deepEqual(readPrivateFile(file, 3, false), { ok: false, reason: 'too-large', size: 4 });
    fs.chmodSync(file, 0o640);
    assert.deepEqual(readPrivateFile(file, 4, false), { ok: false, reason: 'shared', mode: 0o640 });
    fs.chmodSync(file, 0o400);
    assert.equal(readPrivateFile(file, 4, false).ok, true, "stricter than 0600 is the user's alone too");
    const link = path.join(home.dir, 'link');
    fs.symlinkSync(file, link);
    assert.deepEqual(readPrivateFile(link, 4, false), { ok: false, reason: 'not-a-file' }, 'a link refused');
    assert.deepEqual(readPrivateFile(link, 4, true), { ok: true, text: 'abc\n' }, 'or followed, as the caller says');
    assert.deepEqual(readPrivateFile(home.dir, 4, true), { ok: false, reason: 'not-a-file' });
    assert.deepEqual(readPrivateFile(path.join(home.dir, 'absent'), 4, true), {
      ok: false,
      reason: 'unreadable',
      code: 'ENOENT',
    });
  },
);

test(
  'a FIFO named as the admin token file or as a secret is refused at once, not waited on for a writer',
  { skip: posix, timeout: 10_000 },
  (t) => {
    const home = tempDir();
    t.after(() => home.cleanup());
    const fifo = path.join(home.dir, 'vault.TOKEN');
    execFileSync('mkfifo', ['-m', '600', fifo]);
    assert.deepEqual(readPrivateFile(fifo, 64, true), { ok: false, reason: 'not-a-file' });
    assert.throws(() => adminToken(fifo, {}), /admin token file .* is not a regular file/);
    assert.match((readSecret(home.dir, 'vault.TOKEN') as { message: string }).message, /is not a plain file/);
  },
);
