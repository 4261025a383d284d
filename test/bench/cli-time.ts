/**
 * Wall time of read-only CLI commands against `node -e 0` (Node's own start-up) on a data dir
 * holding 1,000 activity rows and 200 events; also the CPU time (user + system, from bash's
 * `times`: on a loaded machine it moves far less than wall time) and the bytes each wrote to stderr.
 * Run: npm run bench:cli   (BENCH_RUNS=N runs per command, default 10; GRIMOIRE_BENCH_CLI=path to
 * another build's out/server/cli/main.js, e.g. main's; GRIMOIRE_STORE_ENGINE is passed on to the
 * commands; under another Node, `node out/test/bench/cli-time.js` runs the commands on that Node).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Store } from '../../server/store/store.js';
import { gatewayEnv } from '../helpers/gateway-process.js';
import { cliPath, tempDir } from '../helpers/temp.js';
import { median } from './figures.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const cli = process.env.GRIMOIRE_BENCH_CLI ? path.resolve(process.env.GRIMOIRE_BENCH_CLI) : cliPath;
const COMMANDS = [['--version'], ['activity', 'list'], ['events'], ['powers', 'list'], ['stats'], ['hints']];

async function seed(dataDir: string): Promise<void> {
  const store = await Store.open({ dataDir });
  const now = Date.now();
  for (let i = 0; i < 1_000; i += 1) {
    store.write({
      op: 'insert',
      table: 'activity',
      row: {
        id: `a${i}`,
        at: now - i * 1000,
        session: `s${i % 7}`,
        power: 'everything',
        tool: i % 3 ? 'echo' : 'get-sum',
        variant: 'direct',
        decision: 'allowed',
        status: 'ok',
        latency_ms: 3,
        result_bytes: 40,
      },
    });
  }
  for (let i = 0; i < 200; i += 1)
    store.write({
      op: 'insert',
      table: 'events',
      row: { id: `e${i}`, at: now - i * 1000, kind: 'power.active', power: 'everything', detail: null },
    });
  store.close();
}

/** Runs node with `args` under bash, which reports the child's CPU time with `times`. */
function time(
  args: string[],
  env: Record<string, string>,
  errFile: string,
): { ms: number; cpuMs: number; stderrBytes: number; status: number | null } {
  const script = '"$@" > /dev/null 2> "$ERR_FILE"; status=$?; times; exit $status';
  const started = performance.now();
  const run = spawnSync('bash', ['-c', script, 'bash', process.execPath, ...args], {
    env: { ...env, ERR_FILE: errFile },
    encoding: 'utf8',
  });
  const ms = performance.now() - started;
  const children = (run.stdout ?? '').trim().split('\n').at(-1) ?? '';
  const seconds = [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce(
    (sum, m) => sum + Number(m[1]) * 60 + Number(m[2]),
    0,
  );
  return { ms, cpuMs: seconds * 1000, stderrBytes: fs.statSync(errFile).size, status: run.status };
}

async function main(): Promise<void> {
  const home = tempDir('grimoire-bench-cli-');
  const engine = process.env.GRIMOIRE_STORE_ENGINE;
  const env = {
    ...gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') }),
    GRIMOIRE_LOG: 'info',
    ...(engine ? { GRIMOIRE_STORE_ENGINE: engine } : {}),
  };
  delete (env as Record<string, string | undefined>).GRIMOIRE_OFFLINE;
  try {
    await seed(path.join(home.dir, 'data'));
    const errFile = path.join(home.dir, 'stderr.txt');
    const rounds = (args: string[]) => Array.from({ length: RUNS }, () => time(args, env, errFile));
    const nodeRuns = rounds(['-e', '0']);
    const node = median(nodeRuns.map((r) => r.ms));
    const nodeCpu = median(nodeRuns.map((r) => r.cpuMs));
    const rows = COMMANDS.map((command) => {
      const runs = rounds([cli, ...command]);
      const failed = runs.find((r) => r.status !== 0);
      if (failed) throw new Error(`grimoire ${command.join(' ')} exited ${failed.status}`);
      const ms = median(runs.map((r) => r.ms));
      const cpu = median(runs.map((r) => r.cpuMs));
      return {
        command: `grimoire ${command.join(' ')}`,
        median_ms: Math.round(ms),
        times_node: Math.round((ms / node) * 10) / 10,
        cpu_ms: Math.round(cpu),
        cpu_times_node: Math.round((cpu / nodeCpu) * 10) / 10,
        stderr_bytes: Math.max(...runs.map((r) => r.stderrBytes)),
      };
    });
    process.stdout.write(
      JSON.stringify(
        { cli, runs: RUNS, node_e_0: { median_ms: Math.round(node), cpu_ms: Math.round(nodeCpu) }, rows },
        null,
        2,
      ) + '\n',
    );
  } finally {
    home.cleanup();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:cli failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
