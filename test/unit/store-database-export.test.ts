import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StoreDatabase } from '../../server/store/database.js';
import { sqlJsEngine } from '../../server/store/sql-engine.js';
import { rowsOf } from '../../server/store/sql-surface.js';

test(
  'sql.js: export commits the long transaction and keeps the connection: ' +
    'prepared statements, the exclusive lock and later rows',
  async () => {
    const engine = await sqlJsEngine();
    const image = engine.open();
    const store = new StoreDatabase(image);
    store.migrating((db) => db.exec('CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER)'));
    store.writing(() => store.run('INSERT INTO t (k, v) VALUES (?, ?)', ['a', 1]));
    const prepared = image.prepare('SELECT v FROM t WHERE k = ?');

    store.commit();
    const bytes = image.export();

    // The exported file holds what was written in the long transaction.
    const copy = engine.open(bytes);
    assert.deepEqual(rowsOf(copy, 'SELECT k, v FROM t'), [{ k: 'a', v: 1 }]);
    copy.close();
    // A statement prepared before the export still runs (sql.js before 1.16 closed the database on export and freed it).
    assert.deepEqual(prepared.all(['a']), [{ v: 1 }]);
    prepared.free();
    assert.deepEqual(store.all<{ locking_mode: string }>('PRAGMA locking_mode', []), [{ locking_mode: 'exclusive' }]);
    store.writing(() => store.run('INSERT INTO t (k, v) VALUES (?, ?)', ['b', 2]));
    assert.deepEqual(store.all<{ k: string }>('SELECT k FROM t ORDER BY k', []), [{ k: 'a' }, { k: 'b' }]);
    store.close();
  },
);
