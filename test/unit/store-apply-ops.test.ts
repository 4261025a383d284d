import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migrate } from '../../server/store/migrations.js';
import { applyOp, applyOps, type SqlValue, type WriteOp } from '../../server/store/ops.js';
import { loadSqlEngine, type SqlDatabase } from '../../server/store/sql-engine.js';
import { rowsOf, runOnce } from '../../server/store/sql-surface.js';

/** A migrated database whose activity table refuses (RAISE ABORT, which OR IGNORE does not swallow) a row with `at` 13. */
async function database(): Promise<SqlDatabase> {
  const db = (await loadSqlEngine()).open();
  migrate(db);
  db.exec(
    "CREATE TRIGGER refuse_13 BEFORE INSERT ON activity WHEN NEW.at = 13 BEGIN SELECT RAISE(ABORT, 'thirteen'); END",
  );
  return db;
}

const activity = (at: number, extra: Record<string, SqlValue> = {}): WriteOp => ({
  op: 'insert',
  table: 'activity',
  row: {
    id: `a${at}`,
    at,
    session: 's',
    power: 'p',
    tool: 't',
    variant: 'v',
    decision: 'allowed',
    status: 'ok',
    latency_ms: 1,
    result_bytes: 2,
    ...extra,
  },
});

function ops(): WriteOp[] {
  const list: WriteOp[] = [];
  for (let at = 0; at < 23; at++) list.push(activity(at));
  list.push({ op: 'upsert', table: 'activity_ratings', row: { activity_id: 'a3', rating: 1, at: 5 } });
  for (let at = 23; at < 30; at++) list.push(activity(at));
  list.push(activity(30, { error: 'boom' })); // other columns: a group of its own
  list.push(activity(31), activity(5, { tool: 'again' })); // a duplicate id: ignored, as one by one
  list.push({ op: 'delete', table: 'activity', where: { id: 'a7' } });
  for (let at = 32; at < 70; at++) list.push(activity(at));
  return list;
}

const dump = (db: SqlDatabase) =>
  JSON.stringify([rowsOf(db, 'SELECT * FROM activity ORDER BY id'), rowsOf(db, 'SELECT * FROM activity_ratings')]);

test('applyOps: multi-row inserts leave what one-by-one application leaves, a failing group falls back to its ops one by one', async () => {
  const grouped = await database();
  const single = await database();
  const statements: string[] = [];
  const failures: WriteOp[] = [];
  applyOps(
    (sql, params) => {
      statements.push(sql);
      runOnce(grouped, sql, params);
    },
    ops(),
    (op) => failures.push(op),
  );
  const singleFailures: WriteOp[] = [];
  for (const op of ops()) {
    try {
      applyOp((sql, params) => runOnce(single, sql, params), op);
    } catch {
      singleFailures.push(op);
    }
  }
  assert.equal(dump(grouped), dump(single));
  assert.deepEqual(failures, singleFailures);
  assert.deepEqual(failures, [activity(13)]);
  const rows = rowsOf<{ n: number }>(grouped, 'SELECT count(*) AS n FROM activity')[0]!.n;
  assert.equal(rows, 68, '70 ids, a7 deleted, a13 refused');
  assert.ok(
    statements.some((sql) => (sql.match(/\), \(/g) ?? []).length === 31),
    'a statement of 32 rows was used',
  );
  assert.ok(statements.length < ops().length, `fewer statements (${statements.length}) than ops`);
});

test(
  'applyOps: consecutive deletes by one column go as DELETE ... IN and leave what one-by-one ' +
    'application leaves; a null or two-column where stays alone',
  async () => {
    const seed = (): WriteOp[] => [
      ...Array.from({ length: 40 }, (_, at) => activity(at + 100)),
      ...Array.from({ length: 40 }, (_, at): WriteOp => ({
        op: 'upsert',
        table: 'activity_ratings',
        row: { activity_id: `a${at + 100}`, rating: 1, at },
      })),
    ];
    const deletes = (): WriteOp[] => [
      ...Array.from({ length: 37 }, (_, k): WriteOp => ({
        op: 'delete',
        table: 'activity',
        where: { id: `a${k + 100}` },
      })),
      { op: 'delete', table: 'activity', where: { id: 'missing' } },
      { op: 'delete', table: 'activity_ratings', where: { rating: null } },
      { op: 'delete', table: 'activity', where: { id: 'a138', session: 'other' } },
      ...Array.from({ length: 20 }, (_, k): WriteOp => ({
        op: 'delete',
        table: 'activity_ratings',
        where: { activity_id: `a${k + 100}` },
      })),
      activity(200),
    ];
    const grouped = await database();
    const single = await database();
    for (const db of [grouped, single])
      applyOps(
        (sql, params) => runOnce(db, sql, params),
        seed(),
        () => assert.fail('seed'),
      );
    const statements: string[] = [];
    applyOps(
      (sql, params) => {
        statements.push(sql);
        runOnce(grouped, sql, params);
      },
      deletes(),
      () => assert.fail('no delete fails'),
    );
    for (const op of deletes()) applyOp((sql, params) => runOnce(single, sql, params), op);
    assert.equal(dump(grouped), dump(single));
    assert.ok(
      statements.some((sql) => /^DELETE FROM "activity" WHERE "id" IN \((\?, ){31}\?\)$/.test(sql)),
      'a DELETE of 32 ids was used',
    );
    assert.ok(
      statements.some((sql) => /^DELETE FROM "activity_ratings" WHERE "activity_id" IN \((\?, ){15}\?\)$/.test(sql)),
      'the ratings grouped too',
    );
    assert.ok(
      statements.some((sql) => sql === 'DELETE FROM "activity_ratings" WHERE "rating" IS ?'),
      'a null value is deleted by IS, alone',
    );
    assert.ok(statements.length < deletes().length / 3, `${statements.length} statements for ${deletes().length} ops`);
    const left = rowsOf<{ id: string }>(grouped, 'SELECT id FROM activity ORDER BY id').map((row) => row.id);
    assert.deepEqual(left, ['a137', 'a138', 'a139', 'a200'], 'a138 stays: its two-column where does not match');
  },
);
