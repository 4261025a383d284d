import { test } from 'node:test';
import assert from 'node:assert/strict';
import initSqlJs from 'sql.js';
import type { Database } from 'sql.js';
import { migrate } from '../../server/store/migrations.js';
import { applyOp, applyOps, type SqlValue, type WriteOp } from '../../server/store/ops.js';

/** A migrated database whose activity table refuses (RAISE ABORT, which OR IGNORE does not swallow) a row with `at` 13. */
async function database(): Promise<Database> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  migrate(db);
  db.exec("CREATE TRIGGER refuse_13 BEFORE INSERT ON activity WHEN NEW.at = 13 BEGIN SELECT RAISE(ABORT, 'thirteen'); END");
  return db;
}

const activity = (at: number, extra: Record<string, SqlValue> = {}): WriteOp => ({
  op: 'insert',
  table: 'activity',
  row: { id: `a${at}`, at, session: 's', power: 'p', tool: 't', variant: 'v', decision: 'allowed', status: 'ok', latency_ms: 1, result_bytes: 2, ...extra },
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

const dump = (db: Database) => JSON.stringify([db.exec('SELECT * FROM activity ORDER BY id'), db.exec('SELECT * FROM activity_ratings')]);

test('applyOps: multi-row inserts leave what one-by-one application leaves, a failing group falls back to its ops one by one', async () => {
  const grouped = await database();
  const single = await database();
  const statements: string[] = [];
  const failures: WriteOp[] = [];
  applyOps(
    (sql, params) => {
      statements.push(sql);
      grouped.run(sql, params);
    },
    ops(),
    (op) => failures.push(op),
  );
  const singleFailures: WriteOp[] = [];
  for (const op of ops()) {
    try {
      applyOp((sql, params) => single.run(sql, params), op);
    } catch {
      singleFailures.push(op);
    }
  }
  assert.equal(dump(grouped), dump(single));
  assert.deepEqual(failures, singleFailures);
  assert.deepEqual(failures, [activity(13)]);
  const rows = grouped.exec('SELECT count(*) FROM activity')[0]!.values[0]![0];
  assert.equal(rows, 68, '70 ids, a7 deleted, a13 refused');
  assert.ok(statements.some((sql) => (sql.match(/\), \(/g) ?? []).length === 31), 'a statement of 32 rows was used');
  assert.ok(statements.length < ops().length, `fewer statements (${statements.length}) than ops`);
});
