/**
 * What activity retention costs once the table is at its cap: the gateway applies retention every
 * PRUNE_EVERY recorded calls, so at the default cap of 10,000 rows each pass finds PRUNE_EVERY rows
 * over it and deletes them. Records CAP rows (the default engine, fsync off: the pass's own work is
 * measured), then PASSES times: PRUNE_EVERY more rows, one timed `prune`. Prints the pass's wall
 * time in ms (median, p90) and what one pass costs each call (median / PRUNE_EVERY) as JSON.
 * Run: npm run bench:retention   (BENCH_CAP=N rows, default 10000; BENCH_PASSES=N, default 15)
 */
import * as path from 'node:path';
import { ActivityLog, type ActivityCall } from '../../server/activity/activity-log.js';
import { PRUNE_EVERY } from '../../server/calls/record-stage.js';
import { Store } from '../../server/store/store.js';
import { tempDir } from '../helpers/temp.js';
import { median, round } from './figures.js';

const CAP = Number(process.env.BENCH_CAP ?? 10_000);
const PASSES = Number(process.env.BENCH_PASSES ?? 15);

const call = (): ActivityCall => ({
  at: Date.now(),
  session: 'stdio',
  power: 'everything',
  tool: 'echo',
  variant: 'direct',
  decision: 'allowed',
  status: 'ok',
  latencyMs: 1,
  resultBytes: 40,
});

async function main(): Promise<void> {
  const { dir, cleanup } = tempDir();
  const store = await Store.open({ dataDir: path.join(dir, 'data'), fsync: false });
  try {
    const activity = new ActivityLog(store);
    const record = (n: number) => {
      for (let i = 0; i < n; i += 20) activity.recordMany(Array.from({ length: Math.min(20, n - i) }, call));
    };
    record(CAP);
    const ms: number[] = [];
    for (let pass = 0; pass < PASSES; pass++) {
      record(PRUNE_EVERY);
      const started = process.hrtime.bigint();
      const dropped = await activity.prune(30, CAP);
      ms.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (dropped !== PRUNE_EVERY) throw new Error(`a pass dropped ${dropped} rows, not ${PRUNE_EVERY}`);
    }
    ms.sort((a, b) => a - b);
    const middle = median(ms);
    process.stdout.write(
      JSON.stringify(
        {
          cap: CAP,
          passes: PASSES,
          rows_over_per_pass: PRUNE_EVERY,
          pass_ms_median: round(middle, 2),
          pass_ms_p90: round(ms[Math.floor(ms.length * 0.9)]!, 2),
          per_call_us: round((middle * 1000) / PRUNE_EVERY, 2),
        },
        null,
        2,
      ) + '\n',
    );
  } finally {
    store.close();
    cleanup();
  }
}

main().catch((error) => {
  process.stderr.write(`bench:retention failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
