/**
 * The .vsix file count `npm run package` prints is the one vsce prints when it packs, and what
 * zipinfo lists: a small extension packed by vsce's own createVSIX.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createVSIX } from '@vscode/vsce';
import { vsixEntries } from '../../client/packaging/vsix-entries.js';
import { tempDir } from '../helpers/temp.js';

test('vsixEntries counts what vsce reports as packaged and zipinfo lists', async () => {
  const tree = tempDir();
  try {
    const manifest = { name: 'counted', publisher: 'test', version: '0.0.1', license: 'MIT', engines: { vscode: '^1.101.0' }, repository: 'https://example.com/x.git', main: './dist/a.js', activationEvents: ['onStartupFinished'] };
    fs.writeFileSync(path.join(tree.dir, 'package.json'), JSON.stringify(manifest));
    fs.writeFileSync(path.join(tree.dir, 'LICENSE'), 'MIT License');
    fs.writeFileSync(path.join(tree.dir, 'README.md'), '# counted\n\nA test extension.');
    fs.mkdirSync(path.join(tree.dir, 'dist', 'deep'), { recursive: true });
    for (const name of ['a.js', 'b.js', 'deep/c.json']) fs.writeFileSync(path.join(tree.dir, 'dist', name), '// x');
    const packagePath = path.join(tree.dir, 'counted.vsix');
    const printed: string[] = [];
    const log = console.log;
    console.log = (...args: unknown[]) => void printed.push(args.map(String).join(' '));
    try {
      await createVSIX({ cwd: tree.dir, packagePath, dependencies: false, allowMissingRepository: true });
    } finally {
      console.log = log;
    }
    const reported = /\((\d+) files,/.exec(printed.join('\n'));
    assert.ok(reported, printed.join('\n'));
    const listed = execFileSync('zipinfo', ['-1', packagePath], { encoding: 'utf8' }).trim().split('\n').length;
    assert.equal(vsixEntries(packagePath), Number(reported[1]), 'the count vsce printed');
    assert.equal(vsixEntries(packagePath), listed, 'the entries zipinfo lists');
    assert.ok(listed > 5, 'the files put there, plus what vsce adds');

    const notZip = path.join(tree.dir, 'not.vsix');
    fs.writeFileSync(notZip, 'PK but not a zip');
    assert.throws(() => vsixEntries(notZip), /not a zip archive/);
  } finally {
    tree.cleanup();
  }
});
