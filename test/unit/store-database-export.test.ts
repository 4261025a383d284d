import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StoreDatabase } from '../../server/store/database.js';
import { storeEngines } from '../helpers/store-engines.js';

test('export commits and keeps the connection: prepared statements, the exclusive lock and pending rows stay', async (t) => {
  for (const [name, engine] of await storeEngines()) {
    await t.test(name, (t) => {
      if (typeof engine === 'string') return t.skip(engine);
      const store = StoreDatabase.create(engine);
      store.migrating((db) => db.exec('CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER)'));
      store.writing(() => store.run('INSERT INTO t (k, v) VALUES (?, ?)', ['a', 1]));
      const prepared = store.db.prepare('SELECT v FROM t WHERE k = ?');

      const bytes = store.export();

      // The exported file holds what was written in the long transaction.
      const copy = engine.open(bytes);
      assert.deepEqual(copy.exec('SELECT k, v FROM t')[0]?.values, [['a', 1]]);
      copy.close();
      // A statement prepared before the export still runs (sql.js that closed the database on export freed it).
      prepared.bind(['a']);
      assert.equal(prepared.step(), true);
      assert.deepEqual(prepared.get(), [1]);
      prepared.free();
      assert.deepEqual(store.all<{ locking_mode: string }>('PRAGMA locking_mode', []), [{ locking_mode: 'exclusive' }]);
      store.writing(() => store.run('INSERT INTO t (k, v) VALUES (?, ?)', ['b', 2]));
      assert.deepEqual(store.all<{ k: string }>('SELECT k FROM t ORDER BY k', []), [{ k: 'a' }, { k: 'b' }]);
      store.close();
    });
  }
});
