import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { adminToken } from '../../server/cli/admin-token.js';
import { UsageError } from '../../server/cli/args.js';
import { tempDir } from '../helpers/temp.js';

const TOKEN = 't'.repeat(40);

test(
  'the admin token from a file only its owner can read; any other mode, an empty file or two sources are refused with what to do',
  { skip: process.platform === 'win32' && 'POSIX modes' },
  (t) => {
    const home = tempDir();
    t.after(() => home.cleanup());
    const file = path.join(home.dir, 'token');
    fs.writeFileSync(file, `${TOKEN}\n`, { mode: 0o600 });
    fs.chmodSync(file, 0o600);
    assert.equal(adminToken(file, {}), TOKEN);
    assert.equal(adminToken(undefined, { GRIMOIRE_ADMIN_TOKEN_FILE: file }), TOKEN);
    assert.equal(adminToken(undefined, { GRIMOIRE_ADMIN_TOKEN: ` ${TOKEN} ` }), TOKEN);
    assert.equal(adminToken(undefined, {}), undefined);
    for (const mode of [0o640, 0o604, 0o660, 0o644]) {
      fs.chmodSync(file, mode);
      assert.throws(
        () => adminToken(file, {}),
        (error: Error) =>
          error instanceof UsageError &&
          error.message.includes(`(mode 0${mode.toString(8)})`) &&
          error.message.includes(`chmod 600 ${file}`),
        mode.toString(8),
      );
    }
    fs.chmodSync(file, 0o600);
    assert.throws(() => adminToken(file, { GRIMOIRE_ADMIN_TOKEN: TOKEN }), /Give the admin token once/);
    fs.writeFileSync(file, '\n');
    assert.throws(() => adminToken(file, {}), /is empty/);
    fs.writeFileSync(file, 'short');
    assert.throws(() => adminToken(file, {}), /too short/);
    assert.throws(() => adminToken(path.join(home.dir, 'missing'), {}), /Cannot read the admin token file .*ENOENT/);
    assert.throws(() => adminToken(home.dir, {}), /not a regular file|mode/);
  },
);
