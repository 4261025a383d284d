/**
 * The store's cost, embedded (sql.js + journals, fsync on) against PostgreSQL (a cluster this
 * script starts in a temp dir, fsync on), with one and three replicas (three stores in this
 * process, one event loop, on one data dir / one database):
 *  - writes_per_s: activity records written as fast as they come, until durable() resolves;
 *  - answer path: what a call's answer waits for in the store: writing its activity record, then
 *    (PostgreSQL) acknowledged(), its commit; each replica records one call after another.
 * Prints one JSON row per backend and replica count.
 * Run: npm run bench:store   (BENCH_WRITES=N records per write row, default 5000; BENCH_CALLS=N
 * calls per replica in the answer-path rows, default 500). Needs root (the cluster runs as postgres).
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openStore } from '../../server/store/open-store.js';
import type { Store, WriteOp } from '../../server/store/store-interface.js';
import { pgUnavailable, startPgCluster } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp.js';
import { round } from './figures.js';

const WRITES = Number(process.env.BENCH_WRITES ?? 5000);
const CALLS = Number(process.env.BENCH_CALLS ?? 500);

const record = (): WriteOp => ({
  op: 'insert',
  table: 'activity',
  row: {
    id: randomUUID(), at: Date.now(), session: 's', power: 'everything', tool: 'echo', variant: 'direct', decision: 'allowed',
    status: 'ok', latency_ms: 3, result_bytes: 40, user_name: 'alice',
  },
});

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

async function writes(stores: Store[]): Promise<number> {
  const started = process.hrtime.bigint();
  const per = Math.ceil(WRITES / stores.length);
  await Promise.all(
    stores.map(async (store) => {
      for (let i = 0; i < per; i++) {
        store.write(record());
        if (i % 100 === 99) await new Promise((resolve) => setImmediate(resolve)); // let commits run, as a serving gateway does
      }
      await store.durable();
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return Math.round((per * stores.length) / seconds);
}

async function answerPath(stores: Store[]): Promise<{ p50_ms: number; p95_ms: number }> {
  const times: number[] = [];
  await Promise.all(
    stores.map(async (store) => {
      for (let i = 0; i < CALLS; i++) {
        const started = process.hrtime.bigint();
        store.write(record());
        await store.acknowledged?.();
        times.push(Number(process.hrtime.bigint() - started) / 1e6);
      }
    }),
  );
  times.sort((a, b) => a - b);
  return { p50_ms: round(percentile(times, 50)), p95_ms: round(percentile(times, 95)) };
}

async function main(): Promise<void> {
  const temp = tempDir('grimoire-bench-store-');
  const skip = pgUnavailable();
  const cluster = skip ? undefined : await startPgCluster({ fsync: true });
  try {
    const rows: object[] = [];
    for (const backend of ['embedded', 'postgres'] as const) {
      if (backend === 'postgres' && !cluster) {
        process.stderr.write(`postgres rows skipped: ${skip}\n`);
        continue;
      }
      for (const replicas of [1, 3]) {
        const name = `${backend}-${replicas}`;
        let url: string | undefined;
        if (cluster) {
          await cluster.createDatabase(name.replace('-', '_'));
          url = cluster.url(name.replace('-', '_'));
        }
        const dataDir = path.join(temp.dir, name);
        const open = (n: number) => openStore({ dataDir: backend === 'embedded' ? dataDir : `${dataDir}-${n}`, databaseUrl: backend === 'postgres' ? url : undefined });
        const stores: Store[] = [];
        for (let n = 0; n < replicas; n++) stores.push(await open(n));
        try {
          const writesPerSecond = await writes(stores);
          const answer = await answerPath(stores);
          rows.push({ backend, replicas, writes_per_s: writesPerSecond, answer_path_p50_ms: answer.p50_ms, answer_path_p95_ms: answer.p95_ms });
        } finally {
          for (const store of stores) await store.close();
        }
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    }
    process.stdout.write(JSON.stringify({ writes: WRITES, calls_per_replica: CALLS, rows }, null, 2) + '\n');
  } finally {
    cluster?.stop();
    temp.cleanup();
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
