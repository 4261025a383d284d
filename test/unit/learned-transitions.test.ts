import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LearnedTransitions } from '../../server/hints/learned-transitions.js';
import { Store } from '../../server/store/store.js';
import { tempDir } from '../helpers/temp.js';

test('learned transitions read only new rows between full scans, and agree with a full scan', async (t) => {
  const dir = tempDir();
  const store = await Store.open({ dataDir: dir.dir, fsync: false });
  t.after(() => {
    store.close();
    dir.cleanup();
  });
  let version = 0;
  let id = 0;
  const call = (session: string, tool: string, at: number, status = 'ok') => {
    store.write({ op: 'insert', table: 'activity', row: { id: `r${String(id++).padStart(4, '0')}`, at, session, power: 'm', tool, variant: 'direct', decision: 'allowed', status, latency_ms: 1, result_bytes: 1 } });
    version += 1;
  };
  const incremental = new LearnedTransitions(store, () => version);
  const base = 1_000_000;
  call('s1', 'search', base);
  call('s1', 'open', base + 10);
  call('s2', 'search', base + 10);
  assert.deepEqual(incremental.from('m:search', 1).map((x) => x.to), ['m:open']);

  // Same millisecond as the last row read, another session interleaved, an error, a gap over 15 minutes.
  call('s2', 'open', base + 10);
  call('s1', 'read', base + 20, 'error');
  call('s3', 'search', base + 30);
  call('s3', 'open', base + 30 + 16 * 60_000);
  const fresh = new LearnedTransitions(store, () => version);
  assert.deepEqual(incremental.all(), fresh.all(), 'incremental equals a full scan');
  assert.deepEqual(
    incremental.from('m:search', 1).map((x) => [x.to, x.support]),
    [['m:open', 2]],
  );
  assert.deepEqual(incremental.from('m:open', 1).map((x) => [x.to, x.support, x.errorRate]), [['m:read', 1, 1]]);
});
