/**
 * The audit trail fails closed, on a real full disk: a gateway process
 * whose data folder is a small tmpfs, a real MCP client, the real server-memory power (its own file
 * outside that folder). No call is answered as a success without its record; once the store is
 * known to be unwritable no tool is called (the memory file shows which ran); when space returns
 * calls run and are recorded again, without a restart.
 */
import { after, before, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sqlJsEngine } from '../../server/store/sql-engine.js';
import { Store } from '../../server/store/store.js';
import { connectStdio, gatewayEnv, isAlive, textOf, waitFor } from '../helpers/gateway-process.js';
import { createEntity, storedEntities, writeMemorySpell } from '../helpers/memory-spell.js';
import { tempDir } from '../helpers/temp.js';

const temp = tempDir('grimoire-audit-closed-');
let mountError: string | undefined;
const mounts: string[] = [];

/** A tmpfs of `size` at a new folder: the data folder of one test. */
function tmpfs(name: string, size: string): string {
  const dir = path.join(temp.dir, name);
  fs.mkdirSync(dir);
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
  mounts.push(dir);
  return dir;
}

before(() => {
  try {
    const probe = tmpfs('probe', '64k');
    execFileSync('umount', [probe]);
    mounts.pop();
  } catch (error) {
    mountError = `mounting a tmpfs is not permitted here: ${String((error as { stderr?: Buffer }).stderr ?? error).trim()}`;
  }
});

after(() => {
  for (const dir of mounts.reverse()) execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
  temp.cleanup();
});

/** The database file (better-sqlite3 or node:sqlite), or the sql.js store's journal. */
type Engine = 'database file' | 'sql.js';

/** Fills the file system holding `dir` to the last byte. */
function fill(dir: string): string {
  const filler = path.join(dir, 'filler');
  const fd = fs.openSync(filler, 'w');
  const chunk = Buffer.alloc(4096, 1);
  try {
    for (;;) fs.writeSync(fd, chunk);
  } catch (error) {
    assert.equal((error as NodeJS.ErrnoException).code, 'ENOSPC');
  } finally {
    fs.closeSync(fd);
  }
  return filler;
}

async function gatewayOn(t: TestContext, name: string, engine: Engine) {
  const data = tmpfs(name, '2m');
  const home = path.join(temp.dir, `${name}-home`);
  const memoryFile = path.join(temp.dir, `${name}-memory.jsonl`);
  writeMemorySpell(home, memoryFile);
  const session = await connectStdio(
    ['--spells', home, '--no-imports'],
    gatewayEnv({ home, data }, engine === 'sql.js' ? { GRIMOIRE_STORE_ENGINE: 'sql.js' } : {}),
  );
  t.after(() => session.client.close());
  const create = (entity: string) => createEntity(session.client, entity);
  const created = () => storedEntities(memoryFile);
  return { data, session, create, created };
}

/** How many create_entities calls are recorded, read from the store once the gateway is gone. */
async function recordedEntities(
  data: string,
  session: { client: { close(): Promise<void> }; pid: number | null },
  engine: Engine,
): Promise<number> {
  await session.client.close();
  // sql.js is one process per data folder: the gateway must have exited before this process opens it.
  await waitFor(() => !isAlive(session.pid!), 10_000, 'the gateway to exit');
  const store = await Store.open({ dataDir: data, engine: engine === 'sql.js' ? await sqlJsEngine() : undefined });
  try {
    return store.query<{ n: number }>("SELECT COUNT(*) AS n FROM activity WHERE tool = 'create_entities'")[0]!.n;
  } finally {
    store.close();
  }
}

for (const engine of ['database file', 'sql.js'] as const) {
  test(
    `a full disk under the data folder (${engine}): no call is answered as a success without its record; ` +
      `the tool is not called while the store cannot be written; space returns, recording resumes`,
    { timeout: 120_000 },
    async (t) => {
      if (mountError) return t.skip(mountError);
      const { data, session, create, created } = await gatewayOn(t, engine.replace(/\W+/g, '-'), engine);
      for (let i = 0; i < 5; i++) {
        const r = await create(`before-${i}`);
        assert.equal(r.isError, undefined, textOf(r));
      }

      const filler = fill(data);
      const answers: Array<{ entity: string; ok: boolean; text: string }> = [];
      for (let i = 0; i < 200; i++) {
        const entity = `full-${i}`;
        const result = await create(entity);
        answers.push({ entity, ok: result.isError !== true, text: textOf(result) });
      }
      const succeeded = answers.filter((a) => a.ok);
      const unrecorded = answers.filter((a) => /could not record this call/.test(a.text));
      const refused = answers.filter((a) => /did not call this tool/.test(a.text));
      assert.ok(unrecorded.length >= 1, `the full disk was met within 200 calls: ${answers.slice(-1)[0]?.text}`);
      assert.equal(succeeded.length + unrecorded.length + refused.length, 200, answers.map((a) => a.text).join('\n'));
      const folder = data.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const cause = new RegExp(
        `the data folder ${folder} .*could not write ${folder}/.*(SQLITE_FULL|ENOSPC).*the disk is full`,
      );
      for (const answer of [...unrecorded, ...refused])
        assert.match(answer.text, cause, 'names the real cause and the data folder');
      console.log(
        `${succeeded.length} recorded successes, ${unrecorded.length} unrecorded (error), ${refused.length} refused before the tool`,
      );
      assert.ok(
        refused.length >= 150,
        `once unwritable, calls are refused before their tool (${refused.length} refused, ${unrecorded.length} unrecorded)`,
      );
      const ran = new Set(created());
      assert.deepEqual(
        refused.filter((a) => ran.has(a.entity)),
        [],
        'no refused call reached the tool',
      );
      assert.ok(
        unrecorded.every((a) => ran.has(a.entity)),
        'a call said to have run did run',
      );
      const stderr = session.stderr.join('');
      assert.match(stderr, /SQLITE_FULL|ENOSPC/, 'the log names the real cause');
      assert.doesNotMatch(stderr, /cannot rollback/);

      fs.rmSync(filler);
      const back = await create('after');
      assert.equal(back.isError, undefined, `space returned, no restart: ${textOf(back)}`);
      assert.ok(created().includes('after'));
      const records = await recordedEntities(data, session, engine);
      assert.equal(
        records,
        5 + succeeded.length + 1,
        'every call answered as a success has its record, and only those',
      );
    },
  );
}

test(
  'a data folder on a read-only file system: the gateway calls no tool, and says which file and why',
  { timeout: 60_000 },
  async (t) => {
    if (mountError) return t.skip(mountError);
    const { data, session, create, created } = await gatewayOn(t, 'read-only', 'database file');
    assert.equal((await create('before')).isError, undefined, 'writable at first');
    await session.client.close();
    await waitFor(() => !isAlive(session.pid!), 10_000, 'the first gateway to exit'); // its open files would keep the mount busy
    execFileSync('mount', ['-o', 'remount,ro', data]);
    const again = await connectStdio(
      ['--spells', path.join(temp.dir, 'read-only-home'), '--no-imports'],
      gatewayEnv({ home: path.join(temp.dir, 'read-only-home'), data }),
    );
    const answer = await again.client
      .callTool({
        name: 'call_tool_write',
        arguments: {
          name: 'memory:create_entities',
          args: { entities: [{ name: 'read-only', entityType: 'test', observations: [] }] },
          intent: { operation_type: 'write' },
        },
      })
      .then(
        (result) => `answered: ${textOf(result)}`,
        (error: Error) => `refused: ${error.message}`,
      );
    await again.client.close().catch(() => undefined);
    // The log may come in after the answers.
    await waitFor(() => again.stderr.join('').includes('could not open'), 5_000, 'its log').catch(() => undefined);
    assert.ok(!answer.startsWith('answered') || /could not|did not call/.test(answer), answer);
    assert.ok(!created().includes('read-only'), 'no tool called');
    assert.match(
      again.stderr.join(''),
      new RegExp(
        `could not open ${path.join(data, 'grimoire.db').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(SQLITE_CANTOPEN: .*read-only`,
      ),
    );
    execFileSync('mount', ['-o', 'remount,rw', data]);
  },
);
