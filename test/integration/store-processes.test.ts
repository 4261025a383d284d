/**
 * The store shared by real processes, in both formats (the database file of better-sqlite3 and
 * node:sqlite; the sql.js store's snapshot and journal): concurrent writers (with compactions, on
 * sql.js), a reader that sees committed records as they land, and a writer killed with SIGKILL
 * that loses nothing committed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sqlJsEngine } from '../../server/store/sql-engine.js';
import { Store } from '../../server/store/store.js';

const FIXTURE = path.join(__dirname, '../fixtures/store-writer.js');

interface Child {
  proc: ChildProcess;
  lines: string[];
  stderr: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves once a line satisfying `predicate` has been printed. */
  waitFor(predicate: (lines: string[]) => boolean, timeoutMs?: number): Promise<void>;
}

/** The two formats: the children's engine (GRIMOIRE_STORE_ENGINE) and whether it keeps a journal. */
const FORMATS = [
  { name: 'database file', env: {}, journaled: false },
  { name: 'sql.js store', env: { GRIMOIRE_STORE_ENGINE: 'sql.js' }, journaled: true },
] as const;
type Format = (typeof FORMATS)[number];

function run(args: object, format: Format): Child {
  const proc = spawn(process.execPath, [FIXTURE, JSON.stringify(args)], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...format.env } });
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
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('exit', (code, signal) => resolve({ code, signal })),
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
function setup(t: { after(fn: () => void): void }, format: Format): { dataDir: string; spawn: (args: object) => Child } {
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

async function eventIds(dataDir: string, format: Format): Promise<string[]> {
  const store = await Store.open({ dataDir, ...(format.journaled ? { engine: await sqlJsEngine() } : {}) });
  try {
    return store.query<{ id: string }>('SELECT id FROM events ORDER BY id').map((r) => r.id);
  } finally {
    store.close();
  }
}

for (const format of FORMATS) {
  test(`two writer processes and a reader share one data dir; compactions run meanwhile (${format.name})`, { timeout: 30_000 }, async (t) => {
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
      stages: [
        { until: 300, file: gate('gate-300') },
        { until: 450, file: gate('gate-450') },
        { until: 600 },
      ],
    });

    const results = await Promise.all([...writers, reader].map((c) => c.exited));
    for (const [i, result] of results.entries()) {
      assert.equal(result.code, 0, `child ${i} failed: ${[...writers, reader][i]!.stderr.join('')}`);
    }

    for (const [i, w] of writers.entries()) {
      const ids = w.lines.filter((l) => /^[ab]-\d+$/.test(l));
      assert.equal(ids.length, 300, `writer ${i} committed 300 ids`);
    }

    if (format.journaled) assert.ok(reader.lines.includes('snapshot yes'), 'writers had compacted before the reader opened');
    const counts = reader.lines.filter((l) => l.startsWith('count ')).map((l) => Number(l.slice(6)));
    assert.equal(counts[0], 300, 'the reader sees everything committed before it opened');
    assert.ok(counts.includes(450), `the reader saw the writers' progress: ${counts.join(',')}`);
    assert.equal(counts.at(-1), 600, 'the reader ends up seeing every record');
    for (let i = 1; i < counts.length; i++) assert.ok(counts[i]! > counts[i - 1]!, `count only grew: ${counts.join(',')}`);

    const ids = await eventIds(dataDir, format);
    const expected = ['a', 'b'].flatMap((p) => Array.from({ length: 300 }, (_, i) => `${p}-${i}`)).sort();
    assert.deepEqual(ids, expected);
    if (format.journaled) {
      const left = fs.readdirSync(path.join(dataDir, 'journals'));
      assert.equal(left.length, 1, `one journal, no presence file: ${left.join(', ')}`);
      assert.ok(Number(/^journal-(\d+)\.jsonl$/.exec(left[0]!)?.[1]) >= 2, `the writers compacted: ${left[0]}`);
      assert.equal(fs.existsSync(path.join(dataDir, 'journal.lock')), false);
    } else {
      assert.deepEqual(fs.readdirSync(dataDir).filter((name) => name.startsWith('grimoire.')), ['grimoire.db'], 'one database file; the last connection checkpointed and removed the WAL');
    }
  });

  test(`a writer killed with SIGKILL mid-run loses no committed record (${format.name})`, { timeout: 30_000 }, async (t) => {
    const { dataDir, spawn: start } = setup(t, format);
    const child = start({ mode: 'write', dataDir, prefix: 'k', count: 1_000_000, compactBytes: 8_000 });
    await child.waitFor((lines) => lines.length >= 100);
    child.proc.kill('SIGKILL');
    const { signal } = await child.exited;
    assert.equal(signal, 'SIGKILL');

    const printed = child.lines.filter((l) => /^k-\d+$/.test(l));
    assert.ok(printed.length >= 100, `printed ${printed.length} ids`);
    assert.ok(!child.lines.includes('done'), 'the writer was killed before finishing');

    const ids = new Set(await eventIds(dataDir, format));
    const missing = printed.filter((id) => !ids.has(id));
    assert.deepEqual(missing, [], 'every id printed after write() returned is in the store');
    // Ids are written in order: what the store holds is a prefix of the sequence, no gaps.
    const highest = Math.max(...[...ids].map((id) => Number(id.slice(2))));
    assert.equal(ids.size, highest + 1);

    if (format.journaled) {
      assert.deepEqual(fs.readdirSync(path.join(dataDir, 'journals')).filter((name) => name.endsWith('.open')), [], "the killed writer's presence file was removed by the next open");
    }
  });
}
