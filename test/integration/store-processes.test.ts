/**
 * The store with real processes. The database file (better-sqlite3, node:sqlite): concurrent
 * writers and a reader that sees committed records as they land, and a writer killed with SIGKILL
 * that loses nothing committed. The sql.js store (snapshot and journal): one process per data dir,
 * a second one (sql.js or native) refused while it lives, and after it is killed with SIGKILL the
 * next open (sql.js, or native importing into grimoire.db) has every acknowledged record once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sqlJsEngine } from '../../server/store/sql-engine.js';
import { SqliteStore } from '../../server/store/sqlite-store.js';
import { SqljsStore, Store } from '../../server/store/store.js';
import { nativeEngineOrReason } from '../helpers/store-engines.js';

const FIXTURE = path.join(__dirname, '../fixtures/store-writer.js');

interface Child {
  proc: ChildProcess;
  lines: string[];
  stderr: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves once a line satisfying `predicate` has been printed. */
  waitFor(predicate: (lines: string[]) => boolean, timeoutMs?: number): Promise<void>;
}

/** The children's engine (GRIMOIRE_STORE_ENGINE): this Node's (the database file) or sql.js. */
const FILE = { name: 'database file', env: {} };
const SQLJS = { name: 'sql.js store', env: { GRIMOIRE_STORE_ENGINE: 'sql.js' } };
type Format = typeof FILE | typeof SQLJS;

function run(args: object, format: Format): Child {
  const proc = spawn(process.execPath, [FIXTURE, JSON.stringify(args)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...format.env },
  });
  const lines: string[] = [];
  const stderr: string[] = [];
  const listeners = new Set<() => void>();
  let partial = '';
  proc.stdout!.setEncoding('utf8').on('data', (text: string) => {
    const parts = (partial + text).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
    for (const listener of listeners) listener();
  });
  proc.stderr!.setEncoding('utf8').on('data', (text: string) => stderr.push(text));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(
    (resolve) => proc.on('close', (code, signal) => resolve({ code, signal })), // after the last of its output
  );
  const waitFor = (predicate: (lines: string[]) => boolean, timeoutMs = 10_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!predicate(lines)) return;
        cleanup();
        resolve();
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out; stdout tail: ${lines.slice(-3).join(' | ')}; stderr: ${stderr.join('')}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        listeners.delete(check);
      };
      listeners.add(check);
      check();
    });
  return { proc, lines, stderr, exited, waitFor };
}

/** A temp data dir and a spawner; on cleanup the children are killed, then the dir removed. */
function setup(
  t: { after(fn: () => void): void },
  format: Format,
): { dataDir: string; spawn: (args: object) => Child } {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grimoire-store-proc-'));
  const children: Child[] = [];
  t.after(() => {
    for (const child of children) child.proc.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    dataDir,
    spawn: (args) => {
      const child = run(args, format);
      children.push(child);
      return child;
    },
  };
}

{
  const format = FILE;
  test(`two writer processes and a reader share one data dir (${format.name})`, { timeout: 30_000 }, async (t) => {
    const { dataDir, spawn: start } = setup(t, format);
    // Lockstep, so the test does not depend on timing: both writers stop after 150 and after 225
    // events each, until the reader has seen 300 and 450 and opens the matching gate.
    const gate = (name: string) => path.join(dataDir, name);
    const writer = (prefix: string) =>
      start({
        mode: 'write',
        dataDir,
        prefix,
        count: 300,
        compactBytes: 8_000,
        gates: [
          { at: 150, file: gate('gate-300') },
          { at: 225, file: gate('gate-450') },
        ],
      });
    const writers = [writer('a'), writer('b')];

    // Both writers have committed 150 events and wait; the reader opens now, mid-run.
    await Promise.all(writers.map((w) => w.waitFor((lines) => lines.includes('waiting 150'))));
    const reader = start({
      mode: 'read',
      dataDir,
      stages: [{ until: 300, file: gate('gate-300') }, { until: 450, file: gate('gate-450') }, { until: 600 }],
    });

    const results = await Promise.all([...writers, reader].map((c) => c.exited));
    for (const [i, result] of results.entries()) {
      assert.equal(result.code, 0, `child ${i} failed: ${[...writers, reader][i]!.stderr.join('')}`);
    }

    for (const [i, w] of writers.entries()) {
      const ids = w.lines.filter((l) => /^[ab]-\d+$/.test(l));
      assert.equal(ids.length, 300, `writer ${i} committed 300 ids`);
    }

    const counts = reader.lines.filter((l) => l.startsWith('count ')).map((l) => Number(l.slice(6)));
    assert.equal(counts[0], 300, 'the reader sees everything committed before it opened');
    assert.ok(counts.includes(450), `the reader saw the writers' progress: ${counts.join(',')}`);
    assert.equal(counts.at(-1), 600, 'the reader ends up seeing every record');
    for (let i = 1; i < counts.length; i++)
      assert.ok(counts[i]! > counts[i - 1]!, `count only grew: ${counts.join(',')}`);

    const ids = await eventIds(dataDir);
    const expected = ['a', 'b'].flatMap((p) => Array.from({ length: 300 }, (_, i) => `${p}-${i}`)).sort();
    assert.deepEqual(ids, expected);
    assert.deepEqual(
      fs.readdirSync(dataDir).filter((name) => name.startsWith('grimoire.')),
      ['grimoire.db'],
      'one database file; the last connection checkpointed and removed the WAL',
    );
  });

  test(
    `a writer killed with SIGKILL mid-run loses no committed record (${format.name})`,
    { timeout: 30_000 },
    async (t) => {
      const { dataDir, spawn: start } = setup(t, format);
      const child = start({ mode: 'write', dataDir, prefix: 'k', count: 1_000_000 });
      await child.waitFor((lines) => lines.length >= 100);
      child.proc.kill('SIGKILL');
      const { signal } = await child.exited;
      assert.equal(signal, 'SIGKILL');
      const printed = child.lines.filter((l) => /^k-\d+$/.test(l));
      assert.ok(!child.lines.includes('done'), 'the writer was killed before finishing');

      assertEveryPrintedIdOnce(printed, await eventIds(dataDir));
    },
  );
}

for (const next of ['sql.js', 'native'] as const) {
  test(
    `a sql.js process has its data dir alone: a second process (sql.js, native) is refused, naming it, ` +
      `changing nothing; after SIGKILL the next open (${next}) has every acknowledged record once`,
    { timeout: 30_000 },
    async (t) => {
      const native = await nativeEngineOrReason();
      if (typeof native === 'string') return t.skip(`the native process: ${native}`);
      const { dataDir, spawn: start } = setup(t, SQLJS);
      const child = start({ mode: 'write', dataDir, prefix: 'k', count: 1_000_000, compactBytes: 8_000 });
      await child.waitFor((lines) => lines.length >= 100);
      const lock = fs.readFileSync(path.join(dataDir, 'journal.lock'), 'utf8');
      for (const format of [SQLJS, FILE]) {
        const second = run({ mode: 'write', dataDir, prefix: 'second', count: 1 }, format);
        const { code } = await second.exited;
        assert.equal(code, 1, `${format.name}: ${second.lines.join('\n')}`);
        assert.match(
          second.stderr.join(''),
          new RegExp(`store: process ${child.proc.pid} has this data folder open on sql\\.js .*one process at a time`),
          format.name,
        );
        assert.deepEqual(second.lines, [], `${format.name}: wrote nothing`);
      }
      assert.equal(fs.readFileSync(path.join(dataDir, 'journal.lock'), 'utf8'), lock, 'the holder keeps its lock');
      assert.equal(fs.existsSync(path.join(dataDir, 'grimoire.db')), false, 'the native process claimed nothing');
      await child.waitFor((lines) => lines.length >= 400);
      child.proc.kill('SIGKILL');
      const { signal } = await child.exited;
      assert.equal(signal, 'SIGKILL');
      const printed = child.lines.filter((l) => /^k-\d+$/.test(l));
      assert.ok(!child.lines.includes('done'), 'the writer was killed before finishing');

      const store = await Store.open({ dataDir, engine: next === 'sql.js' ? await sqlJsEngine() : native });
      try {
        assert.ok(next === 'sql.js' ? store instanceof SqljsStore : store instanceof SqliteStore, next);
        if (next === 'sql.js')
          assert.ok(
            fs
              .readdirSync(path.join(dataDir, 'journals'))
              .some((name) => Number(/^journal-(\d+)/.exec(name)?.[1]) >= 2),
            'the killed writer had compacted',
          );
        else
          assert.ok(
            fs.existsSync(path.join(dataDir, 'journaled-store', 'grimoire.sqlite')),
            'imported into grimoire.db',
          );
        assertEveryPrintedIdOnce(
          printed,
          store.query<{ id: string }>('SELECT id FROM events').map((r) => r.id),
        );
        console.log(
          `${next}: ${printed.length} acknowledged, ${store.query<{ n: number }>('SELECT count(*) AS n FROM events')[0]!.n} recorded`,
        );
      } finally {
        store.close();
      }
    },
  );
}

async function eventIds(dataDir: string): Promise<string[]> {
  const store = await Store.open({ dataDir });
  try {
    return store.query<{ id: string }>('SELECT id FROM events ORDER BY id').map((r) => r.id);
  } finally {
    store.close();
  }
}

/** Every id printed after write() returned is in the store; ids are written in order, so what it holds is a prefix of the sequence. */
function assertEveryPrintedIdOnce(printed: string[], stored: string[]): void {
  assert.ok(printed.length >= 100, `printed ${printed.length} ids`);
  const ids = new Set(stored);
  assert.deepEqual(
    printed.filter((id) => !ids.has(id)),
    [],
    'every id printed after write() returned is in the store',
  );
  // A reduce, not a spread: a busy writer stores more ids than a call's arguments can hold.
  const highest = stored.reduce((max, id) => Math.max(max, Number(id.slice(2))), -1);
  // More than printed may be stored: a write returned, its id still in the killed child's output buffer.
  assert.equal(ids.size, highest + 1, 'no gaps');
}
