/**
 * The store's cost: embedded (the SQLite file on this process's engine, and the sql.js
 * store), against PostgreSQL (a cluster this script starts in a temp dir, fsync on), with one and
 * three replicas (three stores in this process, one event loop, on one data dir / one database; the
 * sql.js store with one, the one process its data dir allows),
 * over an activity table already holding BENCH_ROWS rows:
 *  - writes_per_s: activity records written as fast as they come, until durable() resolves;
 *  - answer path: what a call's answer waits for in the store: writing its activity record, then
 *    (PostgreSQL) acknowledged(), its commit; each replica records one call after another;
 *  - list: `activity list --limit 50`'s query (ActivityLog.query, in process: the CLI adds its start);
 *  - rss_mb: this process's resident memory after the row (every replica of the row is in it);
 *  - api: `grimoire serve --http` processes (one per replica) on the same data: `/api/v1/activity?limit=50`
 *    p50/p95 over all of them, and each one's resident memory after its reads (api_rss_mb);
 *  - open_ms: opening the embedded store on that data again (the file: its `PRAGMA quick_check`
 *    reads every page of it, file_mb, before anything is served); open_read_ms: the file opened as a
 *    CLI command that only reads opens it (no quick_check).
 * Prints one JSON row per backend, row count and replica count.
 * Run: npm run bench:store   (BENCH_WRITES=N records per write row, default 5000; BENCH_CALLS=N
 * calls per replica in the answer-path rows, default 500; BENCH_ROWS=10000,1000000 the table sizes,
 * default 10000; BENCH_BACKENDS=file,sqljs,postgres). Needs root for PostgreSQL (the cluster runs as postgres).
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ActivityLog } from '../../server/activity/activity-log.js';
import { openStore } from '../../server/store/open-store.js';
import { loadSqlEngine, sqlJsEngine } from '../../server/store/sql-engine.js';
import { Store as EmbeddedStore } from '../../server/store/store.js';
import type { Store, WriteOp } from '../../server/store/store-interface.js';
import { gatewayEnv, startHttpGateway } from '../helpers/gateway-process.js';
import { pgUnavailable, startPgCluster } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp.js';
import { round } from './figures.js';

const WRITES = Number(process.env.BENCH_WRITES ?? 5000);
const CALLS = Number(process.env.BENCH_CALLS ?? 500);
const ROWS = (process.env.BENCH_ROWS ?? '10000').split(',').map(Number);
const BACKENDS = (process.env.BENCH_BACKENDS ?? 'file,sqljs,postgres').split(',');
const LISTS = 200;

const record = (at = Date.now()): WriteOp => ({
  op: 'insert',
  table: 'activity',
  row: {
    id: randomUUID(),
    at,
    session: 's',
    power: 'everything',
    tool: 'echo',
    variant: 'direct',
    decision: 'allowed',
    status: 'ok',
    latency_ms: 3,
    result_bytes: 40,
    user_name: 'alice',
  },
});

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

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

/** `rows` activity rows, spread over the last 30 days, written in batches of 1,000. */
async function preload(store: Store, rows: number): Promise<void> {
  const now = Date.now();
  for (let i = 0; i < rows; i += 1000) {
    store.writeMany(
      Array.from({ length: Math.min(1000, rows - i) }, (_, j) =>
        record(now - 30 * 86_400_000 + Math.floor(((i + j) / rows) * 30 * 86_400_000)),
      ),
    );
    // PostgreSQL queues at most 10,000 ops for its writer: wait for each 5,000 to commit.
    if (i % 5_000 === 4_000) await store.durable();
  }
  await store.durable();
}

async function list(stores: Store[]): Promise<{ p50_ms: number; p95_ms: number }> {
  const times: number[] = [];
  for (const store of stores) {
    const log = new ActivityLog(store);
    for (let i = 0; i < LISTS / stores.length; i++) {
      const started = process.hrtime.bigint();
      const rows = await log.query({ limit: 50 });
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (rows.length !== 50) throw new Error(`activity list gave ${rows.length} rows`);
    }
  }
  times.sort((a, b) => a - b);
  return { p50_ms: round(percentile(times, 50)), p95_ms: round(percentile(times, 95)) };
}

const API_READS = 100;

/** Gateway processes on the data: the REST API's activity page, timed from here, and each one's RSS. */
async function apiReads(
  dataDir: string,
  url: string | undefined,
  replicas: number,
  tableRows: number,
  engineEnv: Record<string, string>,
): Promise<{ p50_ms: number; p95_ms: number; rss_mb: number[] }> {
  const home = `${dataDir}-home`;
  fs.mkdirSync(home, { recursive: true });
  // The retention's default cap (10,000 calls) would cut the table at the gateway's start: the table is kept whole.
  fs.writeFileSync(
    path.join(home, 'settings.json'),
    JSON.stringify({ activity: { maxEntries: 2 * (tableRows + WRITES + CALLS * replicas) } }),
  );
  const gateways = [];
  for (let n = 0; n < replicas; n++) {
    const data = url ? `${dataDir}-api-${n}` : dataDir;
    gateways.push(
      await startHttpGateway(
        ['--no-imports'],
        gatewayEnv({ home, data }, { ...engineEnv, ...(url ? { GRIMOIRE_DATABASE_URL: url } : {}) }),
      ),
    );
  }
  try {
    const times: number[] = [];
    for (let i = 0; i < API_READS; i++) {
      const gateway = gateways[i % gateways.length]!;
      const started = process.hrtime.bigint();
      const response = await fetch(new URL('/api/v1/activity?limit=50', gateway.url), {
        headers: { Authorization: `Bearer ${gateway.token}` },
      });
      const body = (await response.json()) as { activity?: unknown[] };
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (body.activity?.length !== 50)
        throw new Error(`/api/v1/activity gave ${response.status} ${JSON.stringify(body).slice(0, 200)}`);
    }
    times.sort((a, b) => a - b);
    const rss = gateways.map((g) =>
      Math.round(
        Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${g.process.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024,
      ),
    );
    return { p50_ms: round(percentile(times, 50)), p95_ms: round(percentile(times, 95)), rss_mb: rss };
  } finally {
    await Promise.all(gateways.map((g) => g.stop()));
  }
}

async function main(): Promise<void> {
  const temp = tempDir('grimoire-bench-store-');
  const skip = BACKENDS.includes('postgres') ? pgUnavailable() : 'not asked for (BENCH_BACKENDS)';
  const cluster = skip ? undefined : await startPgCluster({ fsync: true });
  try {
    const rows: object[] = [];
    for (const backend of BACKENDS) {
      if (backend === 'postgres' && !cluster) {
        process.stderr.write(`postgres rows skipped: ${skip}\n`);
        continue;
      }
      for (const tableRows of ROWS) {
        for (const replicas of backend === 'sqljs' ? [1] : [1, 3]) {
          const name = `${backend}_${tableRows}_${replicas}`;
          let url: string | undefined;
          if (backend === 'postgres') {
            await cluster!.createDatabase(name);
            url = cluster!.url(name);
          }
          const dataDir = path.join(temp.dir, name);
          const open = async (n: number): Promise<Store> => {
            if (backend === 'postgres') return openStore({ dataDir: `${dataDir}-${n}`, databaseUrl: url });
            if (backend === 'sqljs') return EmbeddedStore.open({ dataDir, engine: await sqlJsEngine() });
            return openStore({ dataDir });
          };
          const first = await open(0);
          const stores: Store[] = [first];
          try {
            await preload(first, tableRows);
            for (let n = 1; n < replicas; n++) stores.push(await open(n));
            const writesPerSecond = await writes(stores);
            const answer = await answerPath(stores);
            const listed = await list(stores);
            const rss = Math.round(process.memoryUsage().rss / 1048576);
            if (backend !== 'postgres') for (const store of stores.splice(0)) await store.close();
            const api = await apiReads(
              dataDir,
              url,
              replicas,
              tableRows,
              backend === 'sqljs' ? { GRIMOIRE_STORE_ENGINE: 'sql.js' } : {},
            );
            // The API read the table whole: no retention pass cut it meanwhile.
            const opening = performance.now();
            const counter = backend === 'postgres' ? first : await open(0);
            const openMs = backend === 'postgres' ? undefined : round(performance.now() - opening);
            // As a CLI command that only reads opens it: no quick_check.
            const readOpening = performance.now();
            if (backend === 'file') await (await openStore({ dataDir, verify: false })).close();
            const openReadMs = backend === 'file' ? round(performance.now() - readOpening) : undefined;
            const [{ n: rowsAfter }] = await counter.read<{ n: number }>('SELECT COUNT(*) AS n FROM activity');
            if (counter !== first) await counter.close();
            if (Number(rowsAfter) < tableRows)
              throw new Error(`the activity table holds ${rowsAfter} rows after the API reads, not ${tableRows}`);
            rows.push({
              backend: backend === 'file' ? `file (${(await loadSqlEngine()).name})` : backend,
              rows: tableRows,
              replicas,
              writes_per_s: writesPerSecond,
              answer_path_p50_ms: answer.p50_ms,
              answer_path_p95_ms: answer.p95_ms,
              list_p50_ms: listed.p50_ms,
              list_p95_ms: listed.p95_ms,
              rss_mb: rss,
              api_p50_ms: api.p50_ms,
              api_p95_ms: api.p95_ms,
              api_rss_mb: api.rss_mb,
              rows_after: Number(rowsAfter),
              open_ms: openMs,
              open_read_ms: openReadMs,
              file_mb:
                backend === 'file' ? round(fs.statSync(path.join(dataDir, 'grimoire.db')).size / 1048576) : undefined,
            });
            process.stderr.write(`${JSON.stringify(rows.at(-1))}\n`);
          } finally {
            for (const store of stores) await store.close();
          }
          fs.rmSync(dataDir, { recursive: true, force: true });
        }
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
