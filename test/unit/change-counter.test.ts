import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ChangeCounter, CHANGES_FILE } from '../../server/store/journaled/change-counter.js';

function counters(t: { after(fn: () => void): void }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grimoire-changes-'));
  const a = new ChangeCounter(dir);
  const b = new ChangeCounter(dir);
  t.after(() => {
    a.close();
    b.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { dir, a, b };
}

test("a Store's own bump does not make it look again; another's does", (t) => {
  const { a, b } = counters(t);
  a.markSeen(a.current());
  b.markSeen(b.current());
  a.bump();
  assert.equal(a.moved(), false, 'only its own byte was added');
  assert.equal(b.moved(), true, 'the other Store sees the move');
  b.markSeen(b.current());
  b.bump();
  a.bump();
  assert.equal(a.moved(), true, "b's byte came first: a must look");
});

test('a large counter is replaced; a writer still holding the old file announces in the new one', (t) => {
  const { dir, a, b } = counters(t);
  fs.appendFileSync(path.join(dir, CHANGES_FILE), Buffer.alloc(1 << 20, 46));
  a.rotateIfLarge();
  assert.equal(fs.statSync(path.join(dir, CHANGES_FILE)).size, 1, 'a fresh one-byte file');
  a.markSeen(a.current());
  b.bump();
  assert.equal(a.moved(), true, "b's byte reached the file readers look at");
  assert.equal(fs.statSync(path.join(dir, CHANGES_FILE)).size, 2);
});
