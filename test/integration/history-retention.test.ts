/**
 * The activity age limit applied to events, hints shown and recommendations, on the embedded store and on
 * PostgreSQL (where those tables live in the database only).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AGED_TABLES, pruneAgedHistory } from '../../server/activity/history-retention.js';
import { openStore } from '../../server/store/open-store.js';
import type { Store, WriteOp } from '../../server/store/store.js';
import { useTestCluster } from '../helpers/test-cluster.js';

const DAY = 24 * 3600 * 1000;
const postgres = useTestCluster();
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'grimoire-history-'));

after(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

function rowOf(table: string, id: string, at: number): WriteOp {
  if (table === 'events') return { op: 'insert', table, row: { id, at, kind: 'test', power: 'p', detail: null } };
  if (table === 'hint_events')
    return {
      op: 'insert',
      table,
      row: { id, at, session: 's', power: 'p', tool: 't', kind: 'next', hint: 'h', source: 'spell', suggested: '[]' },
    };
  return { op: 'insert', table, row: { id, at, session: 's', source: 'resolve', query: 'q', candidates: '[]' } };
}

const backends: Array<{ name: string; skip?: string; open(): Promise<Store> }> = [
  { name: 'embedded store', open: () => openStore({ dataDir: fs.mkdtempSync(path.join(root, 'emb-')) }) },
  {
    name: 'PostgreSQL',
    skip: postgres.skip,
    open: async () =>
      openStore({
        dataDir: fs.mkdtempSync(path.join(root, 'pg-')),
        databaseUrl: await postgres.cluster.freshDatabase(),
      }),
  },
];

for (const backend of backends) {
  test(
    `${backend.name}: the activity age limit prunes events, hints shown and recommendations older than it, and nothing newer or elsewhere`,
    { skip: backend.skip },
    async (t) => {
      const store = await backend.open();
      t.after(() => store.close());
      const now = Date.UTC(2026, 0, 31);
      const ages = { old: now - 31 * DAY, kept: now - 29 * DAY };
      store.writeMany(AGED_TABLES.flatMap((table) => [rowOf(table, 'old', ages.old), rowOf(table, 'kept', ages.kept)]));
      store.write({
        op: 'insert',
        table: 'catalog_changes',
        row: { id: 'change', at: ages.old, power: 'p', tool: 't', kind: 'added', old_hash: null, new_hash: 'h' },
      });

      pruneAgedHistory(store, 30, now);

      for (const table of AGED_TABLES) {
        assert.deepEqual(
          (await store.read<{ id: string }>(`SELECT id FROM ${table} ORDER BY id`)).map((row) => row.id),
          ['kept'],
          table,
        );
      }
      assert.equal(
        (await store.read('SELECT id FROM catalog_changes')).length,
        1,
        'the tool-change history is not pruned',
      );
    },
  );
}
