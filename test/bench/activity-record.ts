/**
 * What recording a call costs the gateway, in-process on the embedded store (fsync on):
 *  - record: CPU µs per recorded call of `ActivityLog.recordMany` in batches of BENCH_BATCH (the
 *    calls answered in one turn; default 20, what the gateway sees at 20 calls at a time), 4,000
 *    calls per run, compaction off; BENCH_RUNS runs (default 7), sorted, and their median;
 *  - stage: the record stage as the gateway runs it (`recordStage`: turns of BENCH_BATCH calls, their
 *    records written behind, retention every PRUNE_EVERY calls at the default cap of 10,000 rows,
 *    compaction as the gateway has it), CPU µs per call over 20,000 calls once the table is at its
 *    cap; BENCH_RUNS runs, sorted, and their median;
 *  - replay (the sql.js store): `Store.open` over a snapshot of 10,000 activity rows plus 0 / 2,500
 *    / 5,000 rows in the journal, and a compaction (a write past the bound), in ms.
 * Run: npx tsc -b && node out/test/bench/activity-record.js [OUT]   (OUT: another build's out/
 * folder to measure instead of this one, e.g. main's).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ActivityCall, ActivityLog as ActivityLogClass } from '../../server/activity/activity-log.js';
import type { recordStage as RecordStage } from '../../server/calls/record-stage.js';
import type { RecordingGate as RecordingGateClass } from '../../server/calls/recording-gate.js';
import type { CallContext } from '../../server/calls/pipeline.js';
import type { Store as StoreFactory } from '../../server/store/store.js';
import type { sqlJsEngine as SqlJsEngine } from '../../server/store/sql-engine.js';
import { repoRoot, tempDir } from '../helpers/temp.js';

const out = path.resolve(process.argv[2] ?? path.join(repoRoot, 'out'));
const BATCH = Number(process.env.BENCH_BATCH ?? 20);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);

type Built = {
  Store: typeof StoreFactory;
  ActivityLog: typeof ActivityLogClass;
  recordStage: typeof RecordStage;
  RecordingGate?: typeof RecordingGateClass;
  sqlJsEngine: typeof SqlJsEngine;
};
const load = async (file: string) => (await import(pathToFileURL(path.join(out, file)).href)) as Partial<Built>;
const CAP = 10_000;
const STAGE_CALLS = 20_000;

const call = (i: number): ActivityCall => ({
  at: Date.now(),
  session: '6f1c2d3e-aaaa-bbbb-cccc-1234567890ab',
  power: 'everything',
  tool: 'echo',
  variant: 'a',
  decision: 'allowed',
  status: 'ok',
  latencyMs: 1.234,
  resultBytes: 40 + (i % 7),
});

function record(log: ActivityLogClass, calls: number, batch = BATCH): void {
  for (let i = 0; i < calls; i += batch) log.recordMany(Array.from({ length: batch }, (_, j) => call(i + j)));
}

const round = (n: number) => Math.round(n * 10) / 10;

async function recordCost({ Store, ActivityLog }: Built): Promise<Record<string, unknown>> {
  const dir = tempDir('grimoire-bench-record-');
  const store = await Store.open({ dataDir: dir.dir });
  try {
    const log = new ActivityLog(store);
    record(log, 2000);
    const runs: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      const start = process.cpuUsage();
      record(log, 4000);
      const used = process.cpuUsage(start);
      runs.push((used.user + used.system) / 4000);
    }
    runs.sort((a, b) => a - b);
    return { row: 'record', batch: BATCH, us_cpu_per_call: runs.map(round), median: round(runs[runs.length >> 1]!) };
  } finally {
    store.close();
    dir.cleanup();
  }
}

/** One call's context as the pipeline gives it to its first stage. */
const context = (i: number): CallContext => ({
  power: 'everything',
  tool: 'echo',
  calledAs: 'everything__echo',
  args: { message: `bench ${i}` },
  sessionId: '6f1c2d3e-aaaa-bbbb-cccc-1234567890ab',
  startedAt: Date.now(),
  variant: 'direct',
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
    source: 'server',
  },
});

async function stageCost({ Store, ActivityLog, recordStage, RecordingGate }: Built): Promise<Record<string, unknown>> {
  const dir = tempDir('grimoire-bench-stage-');
  const store = await Store.open({ dataDir: dir.dir });
  const log = new ActivityLog(store);
  try {
    // A build before the recording gate takes no third argument.
    const gate = RecordingGate && new RecordingGate({ where: dir.dir, probe: async () => undefined });
    const stage = recordStage(log, () => ({ retentionDays: 30, maxEntries: CAP }), gate!);
    const answer = { content: [{ type: 'text' as const, text: 'Echo: bench' }] };
    const next = () => Promise.resolve(answer);
    let made = 0;
    const calls = async (n: number) => {
      for (const end = made + n; made < end;) {
        await Promise.all(Array.from({ length: BATCH }, () => stage(context(made++), next)));
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    await calls(CAP + 2000);
    const runs: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      const start = process.cpuUsage();
      await calls(STAGE_CALLS);
      const used = process.cpuUsage(start);
      runs.push((used.user + used.system) / STAGE_CALLS);
    }
    runs.sort((a, b) => a - b);
    return {
      row: 'stage',
      batch: BATCH,
      cap: CAP,
      us_cpu_per_call: runs.map(round),
      median: round(runs[runs.length >> 1]!),
    };
  } finally {
    store.close();
    dir.cleanup();
  }
}

async function replayCost(
  { Store, ActivityLog, sqlJsEngine }: Built,
  journalRows: number,
): Promise<Record<string, unknown>> {
  const dir = tempDir('grimoire-bench-replay-');
  const copy = tempDir('grimoire-bench-replay-copy-');
  const engine = await sqlJsEngine();
  try {
    // One batch past a bound of 1 byte: the 10,000 rows go into the snapshot.
    const first = await Store.open({ dataDir: dir.dir, engine, compactBytes: 1 });
    new ActivityLog(first).recordMany(Array.from({ length: 10_000 }, (_, i) => call(i)));
    first.close();
    const snapshotBytes = fs.statSync(path.join(dir.dir, 'grimoire.sqlite')).size;
    const store = await Store.open({ dataDir: dir.dir, engine, compactBytes: 2 ** 40 });
    record(new ActivityLog(store), journalRows);
    store.close();
    fs.cpSync(dir.dir, copy.dir, { recursive: true });
    let start = performance.now();
    const reopened = await Store.open({ dataDir: copy.dir, engine, compactBytes: 1 });
    const openMs = performance.now() - start;
    // The write that takes the journal past the snapshot's size compacts: its time.
    const journals = path.join(copy.dir, 'journals');
    const current = path.join(
      journals,
      fs.readdirSync(journals).find((name) => name.endsWith('.jsonl'))!,
    );
    const log = new ActivityLog(reopened);
    let compactMs = 0;
    for (let i = 0; fs.existsSync(current); i++) {
      start = performance.now();
      log.record(call(i));
      compactMs = performance.now() - start;
    }
    reopened.close();
    return {
      row: 'replay (sql.js)',
      snapshot_mb: round(snapshotBytes / 1e6),
      journal_rows: journalRows,
      open_ms: round(openMs),
      compact_ms: round(compactMs),
    };
  } finally {
    dir.cleanup();
    copy.cleanup();
  }
}

async function main(): Promise<void> {
  const built = {
    Store: (await load('server/store/store.js')).Store!,
    ActivityLog: (await load('server/activity/activity-log.js')).ActivityLog!,
    recordStage: (await load('server/calls/record-stage.js')).recordStage!,
    RecordingGate: (
      (await import(pathToFileURL(path.join(out, 'server/calls/recording-gate.js')).href).catch(() => ({}))) as {
        RecordingGate?: typeof RecordingGateClass;
      }
    ).RecordingGate,
    sqlJsEngine: (
      (await import(pathToFileURL(path.join(out, 'server/store/sql-engine.js')).href)) as {
        sqlJsEngine: typeof SqlJsEngine;
      }
    ).sqlJsEngine,
  };
  console.log(JSON.stringify({ out, ...(await recordCost(built)) }));
  console.log(JSON.stringify(await stageCost(built)));
  for (const rows of [0, 2500, 5000]) console.log(JSON.stringify(await replayCost(built, rows)));
}

void main();
