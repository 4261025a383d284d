import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readForEdit } from '../../client/file-write.js';
import { repoRoot, tempDir } from '../helpers/temp.js';

const noFifo = process.platform === 'win32' && 'FIFOs are POSIX';

/** A FIFO named mcp.json in a temp folder removed after the test. */
function fifoMcpJson(t: { after(fn: () => void): void }): string {
  const home = tempDir();
  t.after(() => home.cleanup());
  const file = path.join(home.dir, 'mcp.json');
  execFileSync('mkfifo', [file]);
  return file;
}

test('an mcp.json that is a FIFO is refused at once, naming what it is', { skip: noFifo }, (t) => {
  const file = fifoMcpJson(t);
  const read = readForEdit(file);
  assert.equal(read.ok, false);
  assert.match(
    !read.ok ? read.message : '',
    /mcp\.json: it is a named pipe \(FIFO\), not a regular file, and was not read/,
  );
});

test(
  'an mcp.json swapped for a FIFO right after it was looked at is not waited on either (the open itself never blocks)',
  { skip: noFifo },
  (t) => {
    const file = fifoMcpJson(t);
    const regular = fs.statSync(__filename);
    // The swap cannot be timed from outside: this child's first stat of the file answers what a regular
    // file's stat would, as if it was swapped just after.
    const child =
      `
    const fs = require('node:fs');
    const stat = fs.statSync;
    let first = true;
    fs.statSync = (file, ...rest) => {
      if (first && file === ${JSON.stringify(file)}) { first = false; ` +
      `return Object.assign(Object.create(fs.Stats.prototype), ${JSON.stringify({ ...regular })}, { mode: ` +
      `${regular.mode} }); }
      return stat(file, ...rest);
    };
    const { readForEdit } = require(${JSON.stringify(path.join(repoRoot, 'out', 'client', 'file-write.js'))});
    const read = readForEdit(${JSON.stringify(file)});
    process.stdout.write(JSON.stringify({ swapSeen: !first, read }));
  `;
    const run = spawnSync(process.execPath, ['-e', child], { encoding: 'utf8', timeout: 10_000 });
    assert.equal(run.signal, null, `the read hung: killed by ${run.signal}`);
    const { swapSeen, read } = JSON.parse(run.stdout) as { swapSeen: boolean; read: { ok: boolean; message?: string } };
    assert.equal(swapSeen, true, 'the stat answered as a regular file');
    assert.equal(read.ok, false);
    assert.match(read.message ?? '', /named pipe \(FIFO\), not a regular file/);
  },
);

test('a regular mcp.json is read as bytes and text; an oversized one is refused with its size and the limit', (t) => {
  const home = tempDir();
  t.after(() => home.cleanup());
  const file = path.join(home.dir, 'mcp.json');
  fs.writeFileSync(file, '{"servers": {}}\n');
  const read = readForEdit(file);
  assert.ok(read.ok);
  assert.equal(read.text, '{"servers": {}}\n');
  assert.ok(read.bytes.equals(fs.readFileSync(file)));
  fs.writeFileSync(file, 'x'.repeat(300 * 1024));
  const big = readForEdit(file);
  assert.match(
    !big.ok ? big.message : '',
    /has 300 KB; Grimoire edits an mcp\.json of up to 256 KB: move the entry by hand/,
  );
});
