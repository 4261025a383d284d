import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Tool } from '../../server/util/mcp-types.js';
import { ServerToolLists } from '../../server/catalog/server-tool-lists.js';
import { PgStore } from '../../server/store/postgres/pg-store.js';
import { ReadConfirmations } from '../../server/trust/read-confirmations.js';
import { toolHash } from '../../server/trust/pins.js';
import { waitFor } from '../helpers/gateway-process.js';
import { useTestCluster } from '../helpers/test-cluster.js';

/**
 * A team's gateway replicas share the store in a real PostgreSQL: a read confirmed on one (the
 * admin's decision, over REST or the CLI) holds on every replica within a second, and each server's
 * tool list kept by launch definition is there for the next replica that starts.
 */
const postgres = useTestCluster();
const { skip } = postgres;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'grimoire-pg-reads-'));

after(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

test(
  'a read confirmed on one replica holds on the other; a changed tool is not confirmed on either',
  { skip },
  async () => {
    const url = await postgres.cluster.freshDatabase();
    const [one, two] = await Promise.all(
      [1, 2].map((i) => PgStore.open({ url, dataDir: fs.mkdtempSync(path.join(root, `r${i}-`)) })),
    );
    const here = new ReadConfirmations(one);
    const there = new ReadConfirmations(two);
    try {
      const clock: Tool = {
        name: 'get_current_time',
        description: 'Get the current date and time.',
        inputSchema: { type: 'object', properties: {} },
      };
      here.confirm('time', [{ name: clock.name, hash: toolHash(clock) }]);
      await waitFor(() => there.isConfirmed('time', clock), 5_000, 'the other replica to see the confirmation');
      assert.equal(there.isConfirmed('time', { ...clock, description: 'Get or set the date and time.' }), false);
      assert.equal(there.revoke('time', clock.name), true);
      await waitFor(() => !here.isConfirmed('time', clock), 5_000, 'the revocation on the first replica');
    } finally {
      here.close();
      there.close();
      await Promise.all([one.close(), two.close()]);
    }
  },
);

test('the tool list kept by launch definition is read by a replica that starts later', { skip }, async () => {
  const url = await postgres.cluster.freshDatabase();
  const first = await PgStore.open({ url, dataDir: fs.mkdtempSync(path.join(root, 'a-')) });
  const tools: Tool[] = [{ name: 'get_weather', description: 'Get the weather.', inputSchema: { type: 'object' } }];
  new ServerToolLists(first).remember('launch-hash', tools, { title: 'Weather' });
  await first.acknowledged?.();
  await first.close();
  const later = await PgStore.open({ url, dataDir: fs.mkdtempSync(path.join(root, 'b-')) });
  try {
    assert.deepEqual(new ServerToolLists(later).recall('launch-hash'), { tools, words: { title: 'Weather' } });
    assert.equal(new ServerToolLists(later).recall('another-hash'), undefined);
  } finally {
    await later.close();
  }
});
