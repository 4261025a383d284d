import { test } from 'node:test';
import assert from 'node:assert/strict';
import { intelCallInsert, type IntelCallRow } from '../../server/intel/accounting/intel-calls-table.js';
import { TokenLedger } from '../../server/intel/accounting/token-ledger.js';
import { InlineTokenizer } from '../../server/intel/tokens/tokenizer.js';
import { Store, type WriteOp } from '../../server/store/store.js';
import { tempDir } from '../helpers/temp.js';

const DAY = 86_400_000;
const row = (id: string, at: number): IntelCallRow => ({
  id,
  at,
  power: 'p',
  tool: 't',
  artifact_id: null,
  summarizer: 'local',
  cache: 'none',
  stored: 1,
  raw_bytes: 10,
  raw_tokens: 5,
  delivered_tokens: 2,
});

test('token ledger: pruning drops the rows past the retention with one op, and writes nothing when none are', async () => {
  const temp = tempDir('grimoire-ledger-');
  const store = await Store.open({ dataDir: temp.dir, fsync: false });
  try {
    const now = 100 * DAY;
    store.writeMany(
      [row('old-1', now - 40 * DAY), row('old-2', now - 31 * DAY), row('new', now - DAY)].map(intelCallInsert),
    );
    const writes: WriteOp[][] = [];
    const writeMany = store.writeMany.bind(store);
    store.writeMany = (ops) => {
      writes.push(ops);
      writeMany(ops);
    };
    const ledger = new TokenLedger(store, new InlineTokenizer());
    await ledger.prune(30, now);
    assert.deepEqual(store.query('SELECT id FROM intel_calls'), [{ id: 'new' }]);
    assert.deepEqual(
      writes,
      [[{ op: 'deleteBefore', table: 'intel_calls', before: { at: now - 30 * DAY } }]],
      'one write of one op for the prune',
    );
    await ledger.prune(30, now);
    assert.equal(writes.length, 1, 'nothing past the retention: nothing written');
  } finally {
    store.close();
    temp.cleanup();
  }
});
