/**
 * The Store contract on both backends (the embedded sql.js store and PostgreSQL on a real cluster
 * started for this file), then what only PostgreSQL has: migrations under an advisory lock, a
 * newer schema refused, a wrong password, the database down at start and lost mid-run.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import pg from 'pg';
import { shortId } from '../../server/activity/activity-id.js';
import { ActivityLog } from '../../server/activity/activity-log.js';
import { idsMatching } from '../../server/activity/activity-table.js';
import { setLogSink } from '../../server/log.js';
import { latestVersion } from '../../server/store/migrations.js';
import { openStore } from '../../server/store/open-store.js';
import { PgStore } from '../../server/store/postgres/pg-store.js';
import type { Store, WriteOp } from '../../server/store/store-interface.js';
import { waitFor } from '../helpers/gateway-process.js';
import { useTestCluster } from '../helpers/test-cluster.js';

const postgres = useTestCluster();
const { skip } = postgres;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'grimoire-pgstore-'));

after(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

/** One place (a data dir, or a database) and a way to open stores on it. */
interface Backend {
  name: 'embedded' | 'postgres';
  place(): Promise<{ open(): Promise<Store> }>;
}

const backends: Backend[] = [
  {
    name: 'embedded',
    place: async () => {
      const dataDir = fs.mkdtempSync(path.join(root, 'emb-'));
      return { open: () => openStore({ dataDir }) };
    },
  },
  {
    name: 'postgres',
    place: async () => {
      const url = await postgres.cluster.freshDatabase();
      return { open: () => openStore({ dataDir: fs.mkdtempSync(path.join(root, 'pg-')), databaseUrl: url }) };
    },
  },
];

/** A row of a table every replica keeps in its read model (learned requests are small and capped per power). */
const row = (id: string, query: string | null = null): WriteOp => ({
  op: 'insert',
  table: 'learned_requests',
  row: { id, at: Date.now(), power: 'p', tool: 't', query },
});
const ids = (store: Store) =>
  store.query<{ id: string }>('SELECT id FROM learned_requests ORDER BY id').map((r) => r.id);

for (const backend of backends) {
  const maybeSkip = backend.name === 'postgres' ? skip : undefined;

  test(
    `${backend.name}: upsert merges columns, insert ignores an existing key, delete by where`,
    { skip: maybeSkip },
    async () => {
      const store = await (await backend.place()).open();
      try {
        store.write({
          op: 'upsert',
          table: 'catalog_powers',
          row: { power: 'a', tools_hash: 'h1', tool_count: 1, refreshed_at: 1 },
        });
        store.write({ op: 'upsert', table: 'catalog_powers', row: { power: 'a', tool_count: 2 } });
        store.write(row('e1', 'first'));
        store.write(row('e1', 'second'));
        store.writeMany([row('e2'), row('e3')]);
        store.write({ op: 'delete', table: 'learned_requests', where: { id: 'e2' } });
        assert.deepEqual(store.query('SELECT power, tools_hash, tool_count FROM catalog_powers'), [
          { power: 'a', tools_hash: 'h1', tool_count: 2 },
        ]);
        assert.deepEqual(ids(store), ['e1', 'e3']);
        assert.equal(
          store.query<{ query: string }>("SELECT query FROM learned_requests WHERE id = 'e1'")[0].query,
          'first',
        );
        await store.durable();
      } finally {
        await store.close();
      }
    },
  );

  test(
    `${backend.name}: one writeMany with the same key upserted twice, then deleted and inserted again, ends as written`,
    { skip: maybeSkip },
    async () => {
      const place = await backend.place();
      const store = await place.open();
      const upsert = (power: string, count: number): WriteOp => ({
        op: 'upsert',
        table: 'catalog_powers',
        row: { power, tool_count: count },
      });
      try {
        store.writeMany([
          upsert('a', 1),
          upsert('b', 1),
          upsert('a', 2),
          row('x', 'one'),
          { op: 'delete', table: 'learned_requests', where: { id: 'x' } },
          row('x', 'two'),
        ]);
        await store.durable();
      } finally {
        await store.close();
      }
      const reopened = await place.open();
      try {
        assert.deepEqual(reopened.query('SELECT power, tool_count FROM catalog_powers ORDER BY power'), [
          { power: 'a', tool_count: 2 },
          { power: 'b', tool_count: 1 },
        ]);
        assert.deepEqual(reopened.query('SELECT id, query FROM learned_requests'), [{ id: 'x', query: 'two' }]);
      } finally {
        await reopened.close();
      }
    },
  );

  test(
    `${backend.name}: a bad op throws before anything is committed; queries cannot write`,
    { skip: maybeSkip },
    async () => {
      const store = await (await backend.place()).open();
      try {
        assert.throws(
          () => store.writeMany([row('ok'), { op: 'insert', table: 'nope', row: { id: 'x' } }]),
          /unknown table "nope"/,
        );
        assert.throws(
          () => store.write({ op: 'insert', table: 'learned_requests', row: { id: 'x', bogus: 1 } }),
          /unknown column "bogus"/,
        );
        assert.throws(
          () => store.write({ op: 'upsert', table: 'learned_requests', row: { at: 1 } }),
          /missing key column "id"/,
        );
        assert.throws(() => store.query("INSERT INTO learned_requests (id) VALUES ('sneaky')"), /read-only/);
        assert.deepEqual(ids(store), []);
      } finally {
        await store.close();
      }
    },
  );

  test(
    `${backend.name}: read() is a query that can wait: it sees this store's writes at once and another's, and cannot write`,
    { skip: maybeSkip },
    async () => {
      const place = await backend.place();
      const store = await place.open();
      const other = await place.open();
      try {
        const call = (id: string, at: number): WriteOp => ({
          op: 'insert',
          table: 'activity',
          row: { id, at, session: 's', power: 'p', tool: "it's?", status: 'ok' },
        });
        store.writeMany([call('a', 1), call('b', 2)]);
        // Read-your-writes, with a `?` inside a quoted literal left alone while the others become parameters.
        assert.deepEqual(
          await store.read("SELECT id FROM activity WHERE tool = 'it''s?' AND at >= ? ORDER BY at", [2]),
          [{ id: 'b' }],
        );
        await store.durable();
        assert.deepEqual(
          await other.read('SELECT COUNT(*) AS n FROM activity'),
          [{ n: 2 }],
          'committed by the other store: read at once in the database',
        );
        await assert.rejects(store.read("DELETE FROM activity WHERE id = 'a'"), /read-only|read only/);
        assert.deepEqual(await store.read('SELECT id FROM activity ORDER BY id'), [{ id: 'a' }, { id: 'b' }]);
        if (backend.name === 'postgres') {
          // The tables that grow with use are not in a replica's memory: a synchronous query of them is refused.
          assert.throws(
            () => store.query('SELECT COUNT(*) AS n FROM activity'),
            /activity table is not held in memory: read it with read\(\)/,
          );
          assert.throws(
            () => store.query('SELECT file FROM artifact_bodies'),
            /artifact_bodies table is not held in memory/,
          );
        } else assert.deepEqual(store.query('SELECT COUNT(*) AS n FROM activity'), [{ n: 2 }]);
      } finally {
        await other.close();
        await store.close();
      }
    },
  );

  test(
    `${backend.name}: a second store sees committed writes (PostgreSQL: within a second), a reopened one everything`,
    { skip: maybeSkip },
    async () => {
      const place = await backend.place();
      const first = await place.open();
      const second = await place.open();
      try {
        for (let i = 0; i < 20; i++) first.write(row(`w${String(i).padStart(2, '0')}`));
        await first.durable();
        const started = Date.now();
        await waitFor(() => ids(second).length === 20, 1_000, 'the second store to see 20 rows');
        assert.ok(Date.now() - started <= 1_000);
        second.write({ op: 'delete', table: 'learned_requests', where: { id: 'w00' } });
        await second.durable();
        await waitFor(() => !ids(first).includes('w00'), 1_000, 'the delete to reach the first store');
      } finally {
        await first.close();
        await second.close();
      }
      const reopened = await place.open();
      try {
        assert.equal(ids(reopened).length, 19);
      } finally {
        await reopened.close();
      }
    },
  );

  test(
    `${backend.name}: activity retention drops the oldest calls with their ratings and keeps the others' ratings; short ids find calls`,
    { skip: maybeSkip },
    async () => {
      const store = await (await backend.place()).open();
      try {
        const log = new ActivityLog(store);
        const now = Date.now();
        const calls = [3, 2, 1].map((ago) =>
          log.record({
            at: now - ago * 1000,
            session: 's',
            power: 'p',
            tool: 't',
            variant: 'direct',
            decision: 'allowed',
            status: 'ok',
            latencyMs: 1,
            resultBytes: 1,
          }),
        );
        await log.rate(calls[0]!.id, 1);
        await log.rate(calls[2]!.id, -1);
        assert.equal(await log.prune(30, 2, now), 1);
        assert.deepEqual(
          (await log.query({})).map((r) => [r.id, r.rating]),
          [
            [calls[2]!.id, -1],
            [calls[1]!.id, 0],
          ],
        );
        assert.deepEqual(await store.read('SELECT activity_id FROM activity_ratings'), [{ activity_id: calls[2]!.id }]);
        assert.deepEqual(await idsMatching(store, shortId(calls[1]!.id)), [calls[1]!.id], 'a short id finds its call');
        assert.deepEqual(await idsMatching(store, '_'), [], 'a LIKE wildcard is matched as itself');
        await store.durable();
      } finally {
        await store.close();
      }
    },
  );

  test(
    `${backend.name}: deleteBefore cuts by row value with text in binary order, in the read model and in the database alike`,
    { skip: maybeSkip },
    async () => {
      const place = await backend.place();
      const store = await place.open();
      try {
        // Binary order: 'B' < 'C' < 'a' (a locale's collation would put 'a' first).
        store.writeMany(
          ['a', 'B', 'C', 'd'].map((id): WriteOp => ({
            op: 'insert',
            table: 'learned_requests',
            row: { id, at: id === 'd' ? 2 : 1, power: 'p', tool: 't', query: null },
          })),
        );
        store.write({ op: 'deleteBefore', table: 'learned_requests', before: { at: 1, id: 'C' } });
        assert.deepEqual(ids(store), ['C', 'a', 'd']);
        await store.durable();
      } finally {
        await store.close();
      }
      const reopened = await place.open();
      try {
        assert.deepEqual(ids(reopened), ['C', 'a', 'd'], 'what the database kept');
      } finally {
        await reopened.close();
      }
    },
  );

  test(`${backend.name}: close is idempotent and the store refuses use afterwards`, { skip: maybeSkip }, async () => {
    const store = await (await backend.place()).open();
    await store.close();
    await store.close();
    assert.throws(() => store.query('SELECT 1'), /closed/);
    assert.throws(() => store.write(row('late')), /closed/);
  });
}

test('postgres: replicas opening a fresh database together migrate it once', { skip }, async () => {
  const url = await postgres.cluster.freshDatabase();
  const stores = await Promise.all(
    [1, 2, 3].map(() => PgStore.open({ url, dataDir: fs.mkdtempSync(path.join(root, 'm-')) })),
  );
  try {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const version = await client.query("SELECT value FROM meta WHERE key = 'schema_version'");
    const tables = await client.query(
      "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'activity'",
    );
    await client.end();
    assert.equal(Number(version.rows[0].value), latestVersion());
    assert.equal(tables.rows[0].n, 1);
  } finally {
    await Promise.all(stores.map((s) => s.close()));
  }
});

test('postgres: a database of a newer schema version is refused with a clear message', { skip }, async () => {
  const url = await postgres.cluster.freshDatabase();
  await (await PgStore.open({ url, dataDir: path.join(root, 'newer') })).close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("UPDATE meta SET value = '999' WHERE key = 'schema_version'");
  await client.end();
  await assert.rejects(
    PgStore.open({ url, dataDir: path.join(root, 'newer') }),
    /schema version 999, newer than this Grimoire's \d+: upgrade Grimoire/,
  );
});

test('postgres: a wrong password is named as such, and neither password appears anywhere', { skip }, async () => {
  const lines: string[] = [];
  setLogSink((line) => lines.push(line));
  try {
    const url = postgres.cluster.url('postgres').replace(postgres.cluster.password, 'WrongPassw0rd');
    const error = await PgStore.open({ url, dataDir: path.join(root, 'pw') }).then(
      () => undefined,
      (e: Error) => e,
    );
    assert.ok(error);
    assert.match(error.message, /refused the login \(wrong user name or password\)/);
    assert.match(error.message, /postgres:\/\/grimoire:\*\*\*@127\.0\.0\.1/);
    for (const text of [error.message, ...lines]) {
      assert.ok(!text.includes('WrongPassw0rd') && !text.includes(postgres.cluster.password), text);
    }
  } finally {
    setLogSink((line) => process.stderr.write(line + '\n'));
  }
});

test('postgres: unreachable at start: retried with backoff, then a clear error', { skip }, async () => {
  const url = postgres.cluster.url('postgres').replace(`:${postgres.cluster.port}/`, ':1/');
  const retries: string[] = [];
  const started = Date.now();
  await assert.rejects(
    PgStore.open({
      url,
      dataDir: path.join(root, 'down'),
      connectForMs: 1_000,
      onRetry: (message) => retries.push(message),
    }),
    /not accepting connections \(is it running\?\)\. Gave up\./,
  );
  assert.ok(retries.length >= 2, `retries: ${retries.length}`);
  assert.ok(Date.now() - started < 5_000);
  assert.ok(retries.every((m) => !m.includes(postgres.cluster.password)));
});

test(
  'postgres: the database lost mid-run: writes answered and queued, written when it returns; overflow counted and reported',
  { skip },
  async () => {
    const url = await postgres.cluster.freshDatabase();
    const writer = await PgStore.open({ url, dataDir: path.join(root, 'lost-w'), maxQueuedOps: 30 });
    let reader: PgStore | undefined;
    try {
      writer.write(row('before'));
      await writer.durable();
      postgres.cluster.pause();
      const started = Date.now();
      for (let i = 0; i < 40; i++) writer.write(row(`down${String(i).padStart(2, '0')}`));
      await waitFor(() => writer.status().down, 5_000, 'the writer to notice the outage');
      await writer.acknowledged(); // queued: acknowledged without the database
      assert.ok(Date.now() - started < 5_000);
      assert.equal(ids(writer).length, 41, 'the replica itself still answers with every write');
      assert.equal(writer.status().overflow, 10);
      postgres.cluster.start();
      await waitFor(() => !writer.status().down && writer.status().queuedOps === 0, 10_000, 'the queue to drain');
      await writer.durable();
      reader = await PgStore.open({ url, dataDir: path.join(root, 'lost-r') });
      const stored = ids(reader);
      assert.equal(stored.filter((id) => id.startsWith('down')).length, 30);
      assert.ok(stored.includes('before'));
      const overflow = await reader.read<{ detail: string }>("SELECT detail FROM events WHERE kind = 'store-overflow'");
      assert.equal(overflow.length, 1);
      assert.match(overflow[0].detail, /^10 store write\(s\) dropped/);
    } finally {
      await writer.close();
      await reader?.close();
    }
  },
);
