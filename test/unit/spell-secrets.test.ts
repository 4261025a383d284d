/** `${secret:NAME}` in a spell: read from a 0600 file of the secrets folder, masked, and refused with the fix otherwise. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readSecret, secretsFolder, writeSecret } from '../../shared/secret-files.js';
import { parseSpell } from '../../server/powers/spell-loader.js';
import { maskSecrets } from '../../server/util/secrets.js';
import { tempDir } from '../helpers/temp.js';

const spell = (value: string) => `name: vault
version: 1.0.0
description: A vault of team notes.
keywords: [vault, notes, team]
server:
  command: node
  args: [vault.js]
  env:
    SETTING: "${value}"
`;

test('a secret is read from its 0600 file, masked from then on, and never followed through a link', (t) => {
  const { dir, cleanup } = tempDir();
  t.after(cleanup);
  const data = path.join(dir, 'data');
  const file = writeSecret(secretsFolder(data), 'vault.SETTING', 'opaque-value-7f3a9\n');
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  assert.equal(fs.statSync(secretsFolder(data)).mode & 0o777, 0o700);
  assert.throws(
    () => writeSecret(secretsFolder(data), 'vault.SETTING', 'other'),
    /EEXIST/,
    'never over an existing secret',
  );
  const loaded = parseSpell(spell('${secret:vault.SETTING}'), path.join(dir, 'vault.spell.yaml'), {
    env: { GRIMOIRE_DATA: data },
  }).power!;
  assert.deepEqual(loaded.problems, []);
  assert.equal(
    loaded.server.transport === 'stdio' && loaded.server.env.SETTING,
    'opaque-value-7f3a9',
    'one trailing newline dropped',
  );
  assert.equal(
    maskSecrets('the child said opaque-value-7f3a9'),
    'the child said ***',
    'masked although its name is no secret name',
  );

  fs.symlinkSync(file, path.join(secretsFolder(data), 'linked'));
  assert.match(
    readSecret(secretsFolder(data), 'linked').ok
      ? ''
      : (readSecret(secretsFolder(data), 'linked') as { message: string }).message,
    /not a plain file/,
  );
  for (const name of ['../escape', '.hidden', 'a/b'])
    assert.match((readSecret(secretsFolder(data), name) as { message: string }).message, /is not a secret name/);
  const missing = parseSpell(spell('${secret:absent}'), path.join(dir, 'vault.spell.yaml'), {
    env: { GRIMOIRE_DATA: data },
  }).power!;
  assert.deepEqual(missing.problems, [
    `secret absent is not set: write it into ${path.join(secretsFolder(data), 'absent')} (mode 0600) (used in server.env.SETTING)`,
  ]);
});
