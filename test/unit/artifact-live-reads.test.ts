import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Intel } from '../../server/intel/intel.js';
import { InlineTokenizer } from '../../server/intel/tokens/tokenizer.js';
import { setLogSink } from '../../server/log.js';
import { Store, type SqlValue } from '../../server/store/store.js';
import { bigText, context, harness, stageRunner, textResult } from './intel-helpers.js';

before(() => setLogSink(() => undefined));
after(() => setLogSink((line) => process.stderr.write(line + '\n')));

test(
  "hasLiveReads asks the store again only when the artifacts table changed (another process's save " +
    'included) or an artifact may have expired',
  async () => {
    const h = await harness();
    const other = await Store.open({ dataDir: h.dataDir, fsync: false });
    const otherIntel = new Intel({
      store: other,
      settings: () => h.settings,
      tokenizer: new InlineTokenizer(),
      now: () => h.clock.now,
    });
    try {
      let queries = 0;
      const query = h.store.query.bind(h.store);
      h.store.query = ((sql: string, params?: SqlValue[]) => {
        if (/FROM intel_artifacts/.test(sql)) queries += 1;
        return query(sql, params);
      }) as typeof h.store.query;
      const live = h.intel.artifacts;
      assert.equal(await live.hasLiveReads('files'), false);
      h.store.write({
        op: 'insert',
        table: 'events',
        row: { id: 'e1', at: 1, kind: 'test', power: 'p', detail: null },
      });
      assert.equal(await live.hasLiveReads('files'), false);
      assert.equal(queries, 1, 'a write to another table keeps the answer');

      await stageRunner({ ...h, intel: otherIntel }).run(context(h), textResult(bigText(20_000)));
      assert.equal(await live.hasLiveReads('files'), true, "another process's read-only artifact is seen");
      assert.equal(await live.hasLiveReads('files'), true);
      assert.equal(queries, 2);

      h.clock.now += (h.settings.artifacts.ttlMinutes + 1) * 60_000;
      assert.equal(await live.hasLiveReads('files'), false, 'expired: asked again');
      assert.equal(queries, 3);
    } finally {
      await otherIntel.close();
      other.close();
      await h.close();
    }
  },
);
