/**
 * A damaged `grimoire.db` is never silently replaced, nor served from: real gateway processes on a
 * data folder whose database file (holding 500 real records) was emptied, truncated, given a bad
 * header or a garbage page. The gateway moves it aside (`grimoire.db.broken-<time>`, its size kept),
 * says so naming both files and what was lost, and serves on a new file; it does not exit. A stale
 * `journal.lock` whose pid now belongs to another program is broken at once; one it cannot judge is
 * refused naming the file to delete.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { ActivityLog } from '../../server/activity/activity-log.js';
import { createClaimed } from '../../server/store/damaged-file.js';
import { processStart } from '../../server/store/data-dir-lock.js';
import { Store } from '../../server/store/store.js';
import { connectStdio, gatewayEnv, isAlive } from '../helpers/gateway-process.js';
import { cliPath, tempDir } from '../helpers/temp.js';

const run = promisify(execFile);
const temp = tempDir('grimoire-damaged-store-');
after(() => temp.cleanup());

const RECORDS = 500;

/**
 * A data folder whose grimoire.db holds RECORDS calls, closed cleanly (no -wal left); `killed`: as
 * a killed process leaves it, the last records in its -wal (copied while the writer is idle).
 */
async function seeded(name: string, killed = false): Promise<{ data: string; home: string; file: string }> {
  const data = path.join(temp.dir, name, 'data');
  const home = path.join(temp.dir, name, 'home');
  fs.mkdirSync(home, { recursive: true });
  const writer = killed ? path.join(temp.dir, name, 'writer') : data;
  const store = await Store.open({ dataDir: writer });
  const activity = new ActivityLog(store);
  activity.recordMany(
    Array.from({ length: RECORDS }, (_, i) => ({
      session: 's',
      power: 'p',
      tool: 't',
      variant: 'direct' as const,
      decision: 'allowed' as const,
      status: 'ok' as const,
      latencyMs: 1,
      resultBytes: 1,
      reason: `record ${i} `.repeat(20),
    })),
  );
  if (killed) fs.cpSync(writer, data, { recursive: true });
  store.close();
  return { data, home, file: path.join(data, 'grimoire.db') };
}

const asideOf = (data: string) => fs.readdirSync(data).filter((name) => /^grimoire\.db\.broken-[\dT-]+Z$/.test(name));

/** Starts a real gateway on the folder, answers initialize and tools/list, stays up; returns its whole log. */
async function serve(data: string, home: string): Promise<string> {
  const session = await connectStdio(['--no-imports'], gatewayEnv({ home, data }));
  const ended = new Promise((resolve) => {
    session.transport.stderr?.once('end', resolve);
    session.transport.stderr?.once('close', resolve);
  });
  try {
    await session.client.listTools();
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.ok(session.pid !== null && isAlive(session.pid!), `the gateway still serves: ${session.stderr.join('')}`);
  } finally {
    await session.client.close();
  }
  await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 5_000))]); // its log may come in after the answers
  return session.stderr.join('');
}

/** The records in the folder's (new) database file. */
async function records(data: string): Promise<number> {
  const store = await Store.open({ dataDir: data });
  try {
    return store.query<{ n: number }>('SELECT COUNT(*) AS n FROM activity')[0]!.n;
  } finally {
    store.close();
  }
}

const damages: Array<[string, (file: string) => void, RegExp]> = [
  [
    'truncated to half its size',
    (file) => fs.truncateSync(file, Math.floor(fs.statSync(file).size / 2)),
    /quick_check|malformed/,
  ],
  ['a bad header', (file) => overwrite(file, 0, Buffer.from('not a database!!')), /not a database/],
  [
    'a garbage page in the middle',
    (file) => overwrite(file, pageAt(file, 0.5), Buffer.alloc(4096, 0xa5)),
    /quick_check|malformed/,
  ],
];

function overwrite(file: string, at: number, bytes: Buffer): void {
  const fd = fs.openSync(file, 'r+');
  try {
    fs.writeSync(fd, bytes, 0, bytes.length, at);
  } finally {
    fs.closeSync(fd);
  }
}

/** The offset of the page at `fraction` of the file (4096-byte pages: SQLite's default). */
const pageAt = (file: string, fraction: number) => Math.floor((fs.statSync(file).size / 4096) * fraction) * 4096;

for (const [what, damage, reason] of damages) {
  test(
    `grimoire.db with ${what}: moved aside whole, named with the new file and where its records are; the gateway serves on a new file`,
    { timeout: 60_000 },
    async () => {
      const { data, home, file } = await seeded(what.replace(/\W+/g, '-'));
      damage(file);
      const size = fs.statSync(file).size;
      const log = await serve(data, home);
      const [aside] = asideOf(data);
      assert.ok(aside, `moved aside: ${fs.readdirSync(data).join(', ')}\n${log}`);
      assert.equal(fs.statSync(path.join(data, aside!)).size, size, 'kept whole');
      assert.ok(log.includes(`${file} is damaged`) && log.includes(path.join(data, aside!)), log);
      assert.match(log, reason);
      assert.match(log, new RegExp(`${size} bytes.*records are in the kept file.*sqlite3 .*\\.recover`, 'i'));
      assert.equal(await records(data), 0, 'the gateway serves on a new, empty file');
    },
  );
}

test(
  'a command that only reads does not check the whole file first, and moves nothing aside: ' +
    'a damaged page it meets fails it; a command that writes checks it, as the gateway does',
  { timeout: 60_000 },
  async () => {
    const { data, home, file } = await seeded('read-only-commands');
    const store = await Store.open({ dataDir: data });
    const [{ rootpage }] = store.query<{ rootpage: number }>(
      "SELECT rootpage FROM sqlite_schema WHERE type = 'table' AND name = 'activity'",
    );
    store.close();
    // The activity table's first page (4096-byte pages, numbered from 1): every read of the table meets it.
    overwrite(file, (rootpage - 1) * 4096, Buffer.alloc(4096, 0xa5));
    const env = gatewayEnv({ home, data });
    const events = await run(process.execPath, [cliPath, 'events', '--json'], { env });
    assert.deepEqual(JSON.parse(events.stdout).events, [], 'a table the damage is not in reads as it is');
    const listed = await run(process.execPath, [cliPath, 'activity', 'list', '--json', '--limit', String(RECORDS)], {
      env,
    }).then(
      () => 'read',
      (error: { stderr: string }) => error.stderr,
    );
    assert.match(
      listed,
      /grimoire\.db is damaged \(database disk image is malformed\).*moves it aside whole/,
      'the damaged table fails the read, saying what to do',
    );
    assert.deepEqual(asideOf(data), [], 'nothing moved aside by a read');
    await run(process.execPath, [cliPath, 'users', 'add', 'bob'], { env });
    assert.equal(asideOf(data).length, 1, 'a write checks first: the damaged file is moved aside before it');
    assert.equal(await records(data), 0);
  },
);

test(
  `grimoire.db emptied (0 bytes) after ${RECORDS} records: moved aside with its -wal, the loss said, not silently treated as new`,
  { timeout: 60_000 },
  async () => {
    const { data, home, file } = await seeded('emptied', true);
    const wal = fs.statSync(`${file}-wal`).size;
    assert.ok(wal > 0, 'the last records are in the -wal, as a killed gateway leaves them');
    fs.truncateSync(file, 0);
    const log = await serve(data, home);
    const [aside] = asideOf(data);
    assert.ok(aside, `moved aside: ${fs.readdirSync(data).join(', ')}\n${log}`);
    assert.equal(
      fs.statSync(path.join(data, `${aside}-wal`)).size,
      wal,
      'its -wal kept beside it, whole (SQLite would have deleted it)',
    );
    assert.match(log, new RegExp(`its -wal holds ${wal} bytes`));
    assert.match(
      log,
      new RegExp(
        `${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is damaged \\(it is empty \\(0 bytes.*moved aside as ` +
          `.*${aside}.*records it held are lost`,
        'i',
      ),
    );
    assert.equal(await records(data), 0);
  },
);

test(
  'an empty grimoire.db a claim made and no process wrote (its opener died first) is simply used: ' +
    'nothing to keep, nothing said',
  async () => {
    const data = path.join(temp.dir, 'claimed');
    fs.mkdirSync(data);
    createClaimed(path.join(data, 'grimoire.db'));
    const store = await Store.open({ dataDir: data });
    store.close();
    assert.deepEqual(asideOf(data), []);
  },
);

test(
  'a stale journal.lock whose pid another program now has is broken at once (Linux: ' +
    '/proc says when it started); one whose holder may be alive is refused naming the file to delete',
  { timeout: 60_000 },
  async (t) => {
    const data = path.join(temp.dir, 'stale-lock');
    const home = path.join(temp.dir, 'stale-lock-home');
    fs.mkdirSync(data, { recursive: true });
    fs.mkdirSync(home, { recursive: true });
    const lock = path.join(data, 'journal.lock');
    const env = gatewayEnv({ home, data });
    const other = spawn('sleep', ['60']);
    try {
      if (processStart(other.pid!) === undefined)
        return t.skip('no /proc/<pid>/stat here to tell when a process started');
      // As a crashed holder left it: its own start time, which the pid's new process does not have.
      fs.writeFileSync(
        lock,
        JSON.stringify({
          pid: other.pid,
          ts: Date.now() - 60_000,
          token: 'crashed',
          start: processStart(other.pid!)! - 100,
        }),
      );
      const started = Date.now();
      const { stdout } = await run(process.execPath, [cliPath, 'activity', 'list', '--json'], { env });
      assert.deepEqual(JSON.parse(stdout).activity, []);
      assert.ok(Date.now() - started < 8_000, 'not waited out: the pid names a process of another start');
      assert.ok(!fs.existsSync(lock));
    } finally {
      other.kill();
    }
    fs.rmSync(path.join(data, 'grimoire.db'));
    // pid 1 as it is (an earlier release's lock says no start): it may be the holder; after the wait, the file is named.
    fs.writeFileSync(lock, JSON.stringify({ pid: 1, ts: Date.now(), token: 'unknown' }));
    const refused = await run(process.execPath, [cliPath, 'activity', 'list', '--json'], { env }).then(
      () => assert.fail('opened while the lock stands'),
      (error: { stderr: string }) => error.stderr,
    );
    assert.ok(refused.includes(`rm ${JSON.stringify(lock)}`), refused);
  },
);
