/**
 * The audit trail fails closed on PostgreSQL too, on a real cluster: a real gateway (`serve --stdio
 * --database`) with the real server-memory power, while the cluster refuses every write (made
 * read-only for every session: `ALTER SYSTEM SET default_transaction_read_only`, reloaded). A
 * call whose record PostgreSQL refused is answered with that error, not as a success; the next
 * calls reach no tool; once the cluster takes writes again, calls run and are recorded.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import pg from 'pg';
import { connectStdio, gatewayEnv, textOf } from '../helpers/gateway-process.js';
import { useTestCluster } from '../helpers/test-cluster.js';
import { createEntity, storedEntities, writeMemorySpell } from '../helpers/memory-spell.js';
import { tempDir } from '../helpers/temp.js';

const postgres = useTestCluster();
const { skip } = postgres;
const temp = tempDir('grimoire-pg-audit-');

after(() => {
  temp.cleanup();
});

/** Every session's next transaction read-only (`on`), or writable again. */
async function readOnly(url: string, on: boolean): Promise<void> {
  const admin = new pg.Client(url);
  await admin.connect();
  try {
    await admin.query('SET default_transaction_read_only = off');
    await admin.query(
      on ? 'ALTER SYSTEM SET default_transaction_read_only = on' : 'ALTER SYSTEM RESET default_transaction_read_only',
    );
    await admin.query('SELECT pg_reload_conf()');
  } finally {
    await admin.end();
  }
  await new Promise((resolve) => setTimeout(resolve, 500)); // the backends read the reloaded configuration
}

test(
  'PostgreSQL refusing the writes: a call whose record was refused is answered with that error; ' +
    'no further tool is called; writable again, calls are recorded',
  { skip, timeout: 90_000 },
  async (t) => {
    const url = await postgres.cluster.freshDatabase();
    const home = path.join(temp.dir, 'home');
    const memoryFile = path.join(temp.dir, 'memory.jsonl');
    writeMemorySpell(home, memoryFile);
    const session = await connectStdio(
      ['--spells', home, '--no-imports', '--database', url],
      gatewayEnv({ home, data: path.join(temp.dir, 'data') }),
    );
    t.after(async () => {
      await session.client.close();
      await readOnly(url, false);
    });
    const create = (entity: string) => createEntity(session.client, entity);
    const created = () => storedEntities(memoryFile);
    const before = await create('before');
    assert.equal(before.isError, undefined, textOf(before));

    await readOnly(url, true);
    const lost = await create('refused-record');
    assert.equal(lost.isError, true, `not answered as a success: ${textOf(lost)}`);
    assert.match(
      textOf(lost),
      /could not record this call .*the PostgreSQL database .*read-only transaction.*did run/s,
    );
    const refused = [await create('not-called-1'), await create('not-called-2')];
    for (const answer of refused)
      assert.match(
        textOf(answer),
        /did not call this tool: its activity log in the PostgreSQL database cannot be written .*read-only transaction/s,
      );
    assert.deepEqual(
      created().filter((name) => name.startsWith('not-called')),
      [],
      'no tool called while PostgreSQL refuses the records',
    );

    await readOnly(url, false);
    const back = await create('after');
    assert.equal(back.isError, undefined, `writable again, no restart: ${textOf(back)}`);
    const reader = new pg.Client(url);
    await reader.connect();
    try {
      const { rows } = await reader.query<{ n: string }>(
        "SELECT COUNT(*) AS n FROM activity WHERE tool = 'create_entities'",
      );
      assert.equal(Number(rows[0]!.n), 2, 'the two calls answered as successes are recorded');
      const events = await reader.query<{ detail: string }>(
        "SELECT detail FROM events WHERE kind = 'activity-log-resumed'",
      );
      assert.match(events.rows[0]?.detail ?? '', /1 call\(s\) ran unrecorded .* 2 refused/);
    } finally {
      await reader.end();
    }
  },
);
