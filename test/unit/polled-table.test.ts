import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PolledTable } from '../../server/store/polled-table.js';
import { Store } from '../../server/store/store.js';
import { tempDir } from '../helpers/temp.js';

const approval = (power: string, hash: string, at = 1) => ({
  op: 'upsert' as const,
  table: 'launch_approvals',
  row: { power, hash, approved_by: null, approved_at: at },
});

test(
  'a polled table reads again only when its table moved, here or in another connection, ' +
    'and tells a change of what its owner depends on',
  async (t) => {
    const home = tempDir();
    const here = await Store.open({ dataDir: home.dir, fsync: false });
    const there = await Store.open({ dataDir: home.dir, fsync: false });
    let reads = 0;
    let changes = 0;
    let failing = false;
    const table = new PolledTable(
      here,
      'launch_approvals',
      () => {
        reads += 1;
        if (failing) throw new Error('the store is closing');
        return new Map(
          here
            .query<{ power: string; hash: string; approved_at: number }>(
              'SELECT power, hash, approved_at FROM launch_approvals',
            )
            .map((row) => [row.power, row]),
        );
      },
      (row) => row.hash,
      () => (changes += 1),
    );
    t.after(() => {
      table.close();
      here.close();
      there.close();
      home.cleanup();
    });
    assert.equal(reads, 1, 'read once at the start');
    table.poll();
    assert.equal(reads, 1, 'nothing moved: no query');

    here.write({
      op: 'upsert',
      table: 'read_confirmations',
      row: { power: 'p', tool: 't', hash: 'h', confirmed_at: 1 },
    });
    table.poll();
    assert.equal(reads, 1, 'another table moved: no query');

    here.write(approval('helper', 'a'));
    table.poll();
    assert.deepEqual([reads, changes, table.get('helper')?.hash], [2, 1, 'a'], 'a write here');

    there.write(approval('helper', 'b'));
    table.poll();
    assert.deepEqual(
      [reads, changes, table.get('helper')?.hash],
      [3, 2, 'b'],
      'a write by another connection to the file',
    );

    there.write(approval('helper', 'b', 2));
    table.poll();
    assert.deepEqual(
      [reads, changes, table.get('helper')?.approved_at],
      [4, 2, 2],
      'rows read anew, no change told: the fingerprint is the same',
    );

    failing = true;
    there.write(approval('other', 'c'));
    table.poll();
    assert.deepEqual(
      [reads, changes, table.has('other'), table.get('helper')?.hash],
      [5, 2, false, 'b'],
      'a failed read keeps the last rows',
    );
    failing = false;
    table.poll();
    assert.deepEqual([reads, changes, table.has('other')], [6, 3, true], 'and the next poll reads again');
  },
);
