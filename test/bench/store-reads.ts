/**
 * What reading the embedded store costs (the store's own query path) on an activity table
 * of ROWS calls: the reads the CLI, the Activity view, stats and retention make, and ranking's
 * usage factors just after a call (the log itself is read again at most every 2 s while calls
 * come). Each timed read follows a one-row write, so no read is answered from an earlier one.
 * Prints CPU ms per operation (median of RUNS) as JSON; with fsync off, the file writes cost what
 * the page cache takes. GRIMOIRE_STORE_ENGINE=sql.js measures the sql.js store.
 * Run: npm run bench:reads   (BENCH_ROWS=N calls in the table, default 10000; BENCH_RUNS=N, default 60)
 */
import * as path from 'node:path';
import { ActivityLog, type ActivityCall } from '../../server/activity/activity-log.js';
import { callsPerTool, finishedCalls, retentionCut } from '../../server/activity/activity-table.js';
import { UsageStats } from '../../server/ranking/usage-stats.js';
import { Store } from '../../server/store/store.js';
import { tempDir } from '../helpers/temp.js';
import { median, round } from './figures.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 60);

const call = (i: number): ActivityCall => ({
  at: Date.now(),
  session: `session-${i % 7}`,
  power: 'everything',
  tool: `tool-${i % 5}`,
  variant: 'read',
  operationType: 'read',
  reason: `why ${i}`,
  decision: 'allowed',
  status: i % 9 === 0 ? 'error' : 'ok',
  latencyMs: 3,
  resultBytes: 40 + i,
});

const cpuMs = (work: () => unknown): number => {
  const started = process.cpuUsage();
  work();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
};

async function main(): Promise<void> {
  const { dir, cleanup } = tempDir();
  const store = await Store.open({ dataDir: path.join(dir, 'data'), fsync: false });
  try {
    const activity = new ActivityLog(store);
    for (let i = 0; i < ROWS; i += 50)
      activity.recordMany(Array.from({ length: Math.min(50, ROWS - i) }, (_, j) => call(i + j)));
    const reads: Record<string, () => unknown> = {
      'recent 50 calls (every column)': () => activity.recent(50),
      '1,000 calls (every column)': () => activity.query({ limit: 1000 }),
      "retention's cut 200 calls in": () => retentionCut(store, 30, ROWS - 200, Date.now()),
      'calls per tool': () => callsPerTool(store),
      'every finished call (6 columns)': () => finishedCalls(store),
    };
    const rows: Record<string, number> = {};
    for (const [name, read] of Object.entries(reads)) {
      const ms: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        activity.record(call(run));
        ms.push(cpuMs(read));
      }
      rows[`${name}_ms`] = round(median(ms));
    }
    // What ranking (resolve_intent, retrieve_tools) pays for the usage factors after each call.
    const usage = new UsageStats(activity);
    await usage.refresh();
    const usageMs: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      activity.record(call(run));
      usageMs.push(cpuMs(() => [usage.forPowers(), usage.forTools()]));
    }
    rows["ranking's usage factors after a call_ms"] = round(median(usageMs));
    process.stdout.write(JSON.stringify({ rows_in_table: ROWS, runs: RUNS, cpu: rows }, null, 2) + '\n');
  } finally {
    store.close();
    cleanup();
  }
}

main().catch((error) => {
  process.stderr.write(`bench:reads failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
