/**
 * A PostgreSQL replica's memory over the tables that grow with use. For each size (BENCH_ROWS,
 * default 10000,1000000), a fresh database (fsync on) gets that many rows in each of `events`,
 * `hint_events`, `recommendations`, `intel_calls` and `intel_artifacts` (live stored results'
 * rows, their bodies left out; written by SQL in the database: filling is not what is measured),
 * then:
 *  - gateway replicas (`grimoire serve --http`, BENCH_REPLICAS, default 2) start on it: each one's
 *    resident memory after start and after 20 `/api/v1/activity` reads (gateway_rss_mb);
 *  - the CLI commands that read those tables, each its own replica: `grimoire events --limit 50`,
 *    `grimoire hints`, `grimoire stats` (recommendation metrics, token sums, stored results' use): peak resident
 *    memory (max RSS) and wall time of each;
 *  - table_mb: the tables' size in PostgreSQL (what a replica would hold if it copied them).
 * Prints one JSON row per size. BENCH_CLI=path/to/out/server/cli/main.js runs another build's
 * gateways and CLI (to compare).
 * Run: npm run bench:growing-tables   (needs root: the cluster runs as the postgres user).
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { PgStore } from '../../server/store/postgres/pg-store.js';
import { gatewayEnv, startHttpGateway } from '../helpers/gateway-process.js';
import { pgUnavailable, startPgCluster } from '../helpers/postgres.js';
import { cliPath, tempDir } from '../helpers/temp.js';
import { round } from './figures.js';

const run = promisify(execFile);
const ROWS = (process.env.BENCH_ROWS ?? '10000,1000000').split(',').map(Number);
const REPLICAS = Number(process.env.BENCH_REPLICAS ?? 2);
const CLI = process.env.BENCH_CLI ?? cliPath;
const TABLES = ['events', 'hint_events', 'recommendations', 'intel_calls', 'intel_artifacts'];
const DAY = 86_400_000;

const candidates = JSON.stringify(
  ['notes', 'tracker', 'weather', 'files', 'search'].map((name, i) => ({
    name,
    relevance: 1 - i / 10,
    factors: { success: 0.5, popularity: 0.5, performance: 0.5, rating: 0.5 },
  })),
);

/** `n` rows in each growing table, spread over the last 60 days (inside every retention's default). */
async function fill(client: pg.Client, n: number, now: number): Promise<void> {
  const at = `${now} - (g::float8 / ${n}) * ${60 * DAY}`;
  await client.query(
    `INSERT INTO events (id, at, kind, power, detail) SELECT 'e' || g, ${at}, 'power.active', ` +
      `'power' || (g % 20), 'started after ' || g || ' ms' FROM generate_series(1, ${n}) g`,
  );
  await client.query(
    `INSERT INTO hint_events (id, at, session, power, tool, kind, hint, source, suggested, outcome, resolved_at)
     SELECT 'h' || g, ${at}, 's' || (g % 5000), 'power' || (g % 20), 'tool' || (g % 7), 'next_action', ` +
      `'power1:tool1', 'declared', '["power1:tool1"]',
            CASE g % 3 WHEN 0 THEN 'followed' WHEN 1 THEN 'ignored' ELSE NULL END, ${at} + 1000
     FROM generate_series(1, ${n}) g`,
  );
  await client.query(
    `INSERT INTO recommendations (id, at, session, source, query, candidates, used, used_rank, used_at)
     SELECT 'r' || g, ${at}, 's' || (g % 5000), CASE g % 2 WHEN 0 THEN 'resolve_intent' ELSE 'retrieve_tools' ` +
      `END, 'find the notes about request ' || g, $1,
            CASE WHEN g % 4 = 0 THEN 'notes' END, CASE WHEN g % 4 = 0 THEN g % 5 END, CASE WHEN g % 4 = 0 THEN ${at} + 1000 END
     FROM generate_series(1, ${n}) g`,
    [candidates],
  );
  await client.query(
    `INSERT INTO intel_calls (id, at, power, tool, artifact_id, summarizer, cache, stored, raw_bytes, raw_tokens, delivered_tokens)
     SELECT 'i' || g, ${at}, 'power' || (g % 20), 'fetch', 'art_' || g, 'local', ` +
      `CASE g % 3 WHEN 0 THEN 'hit' ELSE 'miss' END, 1, 20000, 5000, 300
     FROM generate_series(1, ${n}) g`,
  );
  const summary = JSON.stringify({
    keyFindings: ['Forty open tickets, six of them blocking the release'],
    actionableInsights: ['Close the six blockers first'],
    metadata: { summarizer: 'local' },
  });
  await client.query(
    `INSERT INTO intel_artifacts (id, at, expires_at, power, tool, args_hash, args, read_only, summary, ` +
      `summarizer, raw_bytes, raw_chars, file, fingerprint, search_text, structured, owner)
     SELECT 'art_' || g, ${at}, ${now} + ${3 * 3_600_000}, 'power' || (g % 20), 'list', md5(g::text), ` +
      `'{"page":' || g || '}', 1, $1, 'local', 4000, 4000, 'art_' || g || '.txt',
            'power tool' || repeat(' ticket ' || g, 20), 'power list tickets blocking release ' || g, NULL, NULL
     FROM generate_series(1, ${n}) g`,
    [summary],
  );
  await client.query('VACUUM ANALYZE');
}

const rssMb = (pid: number) =>
  Math.round(Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);

/** A CLI command's peak resident memory and wall time (GNU time), checking its JSON answer; its error when it failed. */
async function cliRun(
  args: string[],
  env: Record<string, string>,
  check: (json: unknown) => boolean,
): Promise<{ max_rss_mb: number; s: number; error?: string }> {
  const { stdout, stderr, failed } = await run(
    '/usr/bin/time',
    ['-f', 'grimoire-time %M %e', process.execPath, CLI, ...args, '--json'],
    { env, maxBuffer: 64 * 1024 * 1024 },
  ).then(
    (done) => ({ ...done, failed: false }),
    (error: { stdout: string; stderr: string }) => ({ stdout: error.stdout, stderr: error.stderr, failed: true }),
  );
  const [, kb, seconds] = /grimoire-time (\d+) ([\d.]+)/.exec(stderr) ?? [];
  const figures = { max_rss_mb: Math.round(Number(kb) / 1024), s: round(Number(seconds), 2) };
  if (failed) return { ...figures, error: /grimoire: (.*)/.exec(stderr)?.[1] ?? stderr.slice(0, 200) };
  if (!check(JSON.parse(stdout))) throw new Error(`grimoire ${args.join(' ')} answered ${stdout.slice(0, 300)}`);
  return figures;
}

async function main(): Promise<void> {
  const skip = pgUnavailable();
  if (skip) throw new Error(`cannot run: ${skip}`);
  const temp = tempDir('grimoire-bench-growing-');
  const cluster = await startPgCluster({ fsync: true });
  try {
    for (const rows of ROWS) {
      const name = `growing_${rows}`;
      await cluster.createDatabase(name);
      const url = cluster.url(name);
      await (await PgStore.open({ url, dataDir: path.join(temp.dir, `${name}-migrate`) })).close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const now = Date.now();
      let tableMb: Record<string, number>;
      try {
        await fill(client, rows, now);
        tableMb = Object.fromEntries(
          await Promise.all(
            TABLES.map(async (table) => [
              table,
              Math.round(
                Number((await client.query('SELECT pg_total_relation_size($1) AS b', [table])).rows[0].b) / 1048576,
              ),
            ]),
          ),
        );
      } finally {
        await client.end();
      }
      const home = path.join(temp.dir, `${name}-home`);
      fs.mkdirSync(home, { recursive: true });
      const env = (data: string) =>
        gatewayEnv({ home, data: path.join(temp.dir, `${name}-${data}`) }, { GRIMOIRE_DATABASE_URL: url });
      const gateways = [];
      let gatewayRss: { started: number[]; after_reads: number[] } | { error: string };
      try {
        for (let n = 0; n < REPLICAS; n++)
          gateways.push(await startHttpGateway(['--no-imports'], env(`gateway-${n}`), CLI));
        await new Promise((resolve) => setTimeout(resolve, 2_000)); // its first reads (retention, usage) run after start
        const started = gateways.map((g) => rssMb(g.process.pid!));
        for (let i = 0; i < 20; i++) {
          const gateway = gateways[i % gateways.length]!;
          const response = await fetch(new URL('/api/v1/activity?limit=50', gateway.url), {
            headers: { Authorization: `Bearer ${gateway.token}` },
          });
          if (response.status !== 200) throw new Error(`/api/v1/activity: ${response.status} ${await response.text()}`);
        }
        gatewayRss = { started, after_reads: gateways.map((g) => rssMb(g.process.pid!)) };
      } catch (error) {
        // Another build's replica may fail to start on these tables (BENCH_CLI): that is the figure.
        gatewayRss = { error: (error instanceof Error ? error.message : String(error)).slice(0, 300) };
      } finally {
        await Promise.all(gateways.map((g) => g.stop()));
      }
      const cliEnv = env('cli');
      const events = await cliRun(
        ['events', '--limit', '50'],
        cliEnv,
        (json) => (json as { events: unknown[] }).events.length === 50,
      );
      const hints = await cliRun(
        ['hints'],
        cliEnv,
        (json) =>
          (json as { followRates: Array<{ shown: number }> }).followRates.reduce((sum, r) => sum + r.shown, 0) === rows,
      );
      const stats = await cliRun(['stats'], cliEnv, (json) => {
        const report = json as {
          recommendations: { all: { recommendations: number } };
          tokens: { summarized: { results: number }; artifacts: { count: number } };
        };
        return (
          report.recommendations.all.recommendations === rows &&
          report.tokens.summarized.results === rows &&
          report.tokens.artifacts.count === rows
        );
      });
      process.stdout.write(
        `${JSON.stringify({ rows_per_table: rows, table_mb: tableMb, gateway_rss_mb: gatewayRss, cli: { events, hints, stats } })}\n`,
      );
    }
  } finally {
    cluster.stop();
    temp.cleanup();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
