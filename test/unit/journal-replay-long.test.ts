/**
 * A long sql.js journal replays whole: a journal of hundreds of thousands of entries (a busy store
 * killed before its compaction) is read without overflowing the call stack, its last time kept.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readJournals } from '../../server/store/journal-replay.js';
import { entryLine, journalName } from '../../server/store/journal.js';
import { tempDir } from '../helpers/temp.js';

test('a journal of 300,000 entries replays without overflowing the stack', () => {
  const home = tempDir();
  try {
    const journal = journalName(1);
    const count = 300_000;
    const lines: Buffer[] = [];
    let seq = 0;
    for (let i = 0; i < count; i++) {
      const line = entryLine(journal, seq, 1_000 + i, []);
      lines.push(line);
      seq += line.length;
    }
    fs.writeFileSync(path.join(home.dir, journal), Buffer.concat(lines));
    const replay = readJournals(home.dir, new Map());
    assert.equal(replay.entries.length, count);
    assert.equal(replay.entries.at(-1)?.ts, 1_000 + count - 1);
  } finally {
    home.cleanup();
  }
});
