/**
 * How a PostgreSQL replica commits (server/store/postgres/pg-writer.ts), on a real cluster: a
 * batch is sent as one query with its values written in as literals, or with parameters when
 * they are large, and both keep every value as written; a call's record is acknowledged once
 * committed, before PostgreSQL flushes its WAL, and `durable()` waits for that flush.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import pg from 'pg';
import { openStore } from '../../server/store/open-store.js';
import { MAX_INLINED_CHARS } from '../../server/store/postgres/pg-sql.js';
import type { WriteOp } from '../../server/store/store-interface.js';
import { useTestCluster } from '../helpers/test-cluster.js';

const postgres = useTestCluster();
const { skip } = postgres;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'grimoire-pgcommit-'));

after(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

async function freshStore() {
  const url = await postgres.cluster.freshDatabase();
  return { url, store: await openStore({ dataDir: fs.mkdtempSync(path.join(root, 'd-')), databaseUrl: url }) };
}

/** Text that would break a statement if it were pasted in unquoted or quoted naively. */
const HOSTILE = [
  "it's",
  "'); DROP TABLE catalog_powers; --",
  "back\\slash \\' and \\n",
  '$1 $2 $$ dollar $tag$ quoted $tag$',
  "E'\\x41'",
  'naïve 東京 👩‍💻',
  '',
  ' ',
];

test(
  'a batch sent as one query and a large one sent with parameters keep every value as written',
  { skip },
  async () => {
    const { url, store } = await freshStore();
    const small: WriteOp[] = HOSTILE.map((text, i) => ({
      op: 'upsert',
      table: 'catalog_powers',
      row: { power: `p${i}`, tools_hash: text, tool_count: i - 3.25, refreshed_at: 2 ** 52 + i },
    }));
    const largeText = `'${'x\\'.repeat(MAX_INLINED_CHARS)}'`;
    const large: WriteOp = {
      op: 'upsert',
      table: 'catalog_powers',
      row: { power: 'large', tools_hash: largeText, tool_count: 0, refreshed_at: null },
    };
    try {
      store.writeMany(small);
      await store.durable();
      store.write(large);
      await store.durable();
    } finally {
      await store.close();
    }
    const client = new pg.Client(url);
    await client.connect();
    try {
      const rows = (
        await client.query<{ power: string; tools_hash: string; tool_count: number; refreshed_at: number | null }>(
          'SELECT power, tools_hash, tool_count, refreshed_at FROM catalog_powers',
        )
      ).rows;
      const byPower = new Map(rows.map((row) => [row.power, row]));
      HOSTILE.forEach((text, i) =>
        assert.deepEqual(
          byPower.get(`p${i}`),
          { power: `p${i}`, tools_hash: text, tool_count: i - 3.25, refreshed_at: 2 ** 52 + i },
          `value ${JSON.stringify(text)}`,
        ),
      );
      assert.equal(byPower.get('large')?.tools_hash, largeText);
      assert.equal(byPower.get('large')?.refreshed_at, null);
      assert.equal(rows.length, HOSTILE.length + 1, 'no statement ran twice or was cut short');
    } finally {
      await client.end();
    }
  },
);

test(
  'a record is acknowledged once committed, before the WAL flush; durable() waits for the flush',
  { skip },
  async () => {
    const { url, store } = await freshStore();
    const admin = new pg.Client(url);
    await admin.connect();
    // The WAL writer would otherwise flush every 200 ms on its own, and hide whether durable() asked for it.
    await admin.query("ALTER SYSTEM SET wal_writer_delay = '10s'");
    await admin.query('SELECT pg_reload_conf()');
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const lsn = async () =>
        (
          await admin.query<{ insert: string; unflushed: string }>(
            'SELECT pg_current_wal_insert_lsn() AS insert, pg_wal_lsn_diff(pg_current_wal_insert_lsn(), ' +
              'pg_current_wal_flush_lsn()) AS unflushed',
          )
        ).rows[0]!;
      // PostgreSQL's WAL writer also wakes when an asynchronous commit fills a WAL page: one small
      // record in a few does; five in a row would all have to.
      let afterAcknowledged: { insert: string; unflushed: string } | undefined;
      for (let attempt = 0; attempt < 5 && !(Number(afterAcknowledged?.unflushed) > 0); attempt++) {
        store.write({
          op: 'insert',
          table: 'events',
          row: { id: `acknowledged-${attempt}`, at: Date.now(), kind: 'test', power: 'p', detail: null },
        });
        await store.acknowledged!();
        afterAcknowledged = await lsn();
        const committed = await admin.query('SELECT id FROM events WHERE id = $1', [`acknowledged-${attempt}`]);
        assert.equal(committed.rowCount, 1, 'an acknowledged record is committed: another connection reads it');
      }
      assert.ok(Number(afterAcknowledged!.unflushed) > 0, 'no acknowledged commit came back before the WAL flush');
      await store.durable();
      const flushedUpTo = (
        await admin.query<{ behind: string }>(
          'SELECT pg_wal_lsn_diff($1::pg_lsn, pg_current_wal_flush_lsn()) AS behind',
          [afterAcknowledged!.insert],
        )
      ).rows[0]!;
      assert.ok(
        Number(flushedUpTo.behind) <= 0,
        `durable() resolved with the WAL flushed only to ${flushedUpTo.behind} bytes before the commit`,
      );
    } finally {
      await store.close();
      await admin.query('ALTER SYSTEM RESET wal_writer_delay');
      await admin.query('SELECT pg_reload_conf()');
      await admin.end();
    }
  },
);

test("the change log carries only what other replicas apply: a call's record alone adds no row", { skip }, async () => {
  const { url, store } = await freshStore();
  const client = new pg.Client(url);
  await client.connect();
  const logged = async () =>
    (await client.query<{ ops: string }>('SELECT ops FROM grimoire_changes ORDER BY seq')).rows.map((row) =>
      (JSON.parse(row.ops) as WriteOp[]).map((op) => op.table),
    );
  const activity = (id: string): WriteOp => ({
    op: 'insert',
    table: 'activity',
    row: {
      id,
      at: Date.now(),
      session: 's',
      power: 'p',
      tool: 't',
      variant: 'direct',
      decision: 'allowed',
      status: 'ok',
    },
  });
  try {
    const before = await logged();
    store.write(activity('a1'));
    await store.acknowledged!();
    assert.deepEqual(await logged(), before, 'a record of a call (a database-only table) is not in the change log');
    store.writeMany([activity('a2'), { op: 'upsert', table: 'catalog_powers', row: { power: 'p', tool_count: 1 } }]);
    await store.acknowledged!();
    assert.deepEqual(await logged(), [...before, ['catalog_powers']], 'a mixed batch logs its read-model ops only');
    assert.equal(
      (await client.query("SELECT id FROM activity WHERE id IN ('a1', 'a2')")).rowCount,
      2,
      'both records are committed',
    );
  } finally {
    await store.close();
    await client.end();
  }
});
