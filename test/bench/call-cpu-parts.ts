/**
 * The gateway's CPU per call split by part, one call at a time over stdio: `bench:proxy`'s gateway
 * row runs long (60,000 calls) while `perf` samples the gateway on the CPU for 5 s (cpu-clock, so a
 * process waiting for a core is not sampled, as the V8 profiler's clock samples are); each sample
 * goes to the innermost JavaScript function on its stack (Node's `--perf-basic-prof-only-functions`
 * names them), and the parts' shares are scaled to the CPU per call the bench read from /proc.
 * Needs `perf` (linux-tools). BENCH_ERA=modern and GRIMOIRE_BENCH_CLI as for bench:proxy.
 * Run: npm run build && node out/test/bench/call-cpu-parts.js
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot, tempDir } from '../helpers/temp.js';
import { round } from './figures.js';
import { PART_NAMES, partOf, stacksOf, type Part } from './perf-stacks.js';

/** From the bench's start to the sampling: start-up, the warm-up calls and the wait for idle are behind, 60,000 calls ahead. */
const WARM_SECONDS = 6;
const SAMPLE_SECONDS = 5;

function childrenOf(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

async function main(): Promise<void> {
  try {
    execFileSync('perf', ['--version'], { stdio: 'ignore' });
  } catch {
    process.stderr.write('call-cpu-parts needs perf (linux-tools) on PATH\n');
    process.exitCode = 1;
    return;
  }
  const scratch = tempDir('grimoire-cpu-parts-');
  try {
    const env = {
      ...process.env,
      BENCH_ROUNDS: '1',
      BENCH_TARGETS: 'gateway stdio',
      BENCH_CONCURRENCY: '1',
      BENCH_CALLS: '60000',
      BENCH_WARMUP: '3000',
      BENCH_GATEWAY_NODE_ARGS: '--perf-basic-prof-only-functions',
    };
    const bench = spawn(process.execPath, [path.join(repoRoot, 'out', 'test', 'bench', 'proxy-overhead.js')], {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    bench.stdout!.on('data', (chunk) => (output += chunk));
    const finished = new Promise<void>((resolve) => bench.once('exit', () => resolve()));
    await new Promise((resolve) => setTimeout(resolve, WARM_SECONDS * 1000));
    const gateway = childrenOf(bench.pid!)[0];
    if (!gateway) throw new Error('the bench has no gateway process to sample');
    const data = path.join(scratch.dir, 'perf.data');
    // perf ends on a signal of its own once the sleep ends: the data file says whether it recorded.
    spawnSync(
      'perf',
      [
        'record',
        '-F',
        '2000',
        '-e',
        'cpu-clock',
        '-g',
        '-p',
        String(gateway),
        '-o',
        data,
        '--',
        'sleep',
        String(SAMPLE_SECONDS),
      ],
      { stdio: 'ignore' },
    );
    if (!fs.existsSync(data))
      throw new Error('perf recorded nothing (perf_event_paranoid, or no permission to trace the gateway)');
    await finished;
    const row = (JSON.parse(output) as { rows: Array<{ cpu_ms_per_call: number; p50_ms: number }> }).rows[0]!;
    const script = execFileSync('perf', ['script', '-i', data, '-F', 'comm,tid,event,ip,sym'], {
      maxBuffer: 1 << 30,
      encoding: 'utf8',
    });
    const stacks = stacksOf(script);
    const counts = new Map<Part, number>();
    for (const stack of stacks) counts.set(partOf(stack), (counts.get(partOf(stack)) ?? 0) + 1);
    const perCall = Object.fromEntries(
      (Object.keys(PART_NAMES) as Part[]).map((part) => [
        PART_NAMES[part],
        round(((counts.get(part) ?? 0) / stacks.length) * row.cpu_ms_per_call * 1000, 1),
      ]),
    );
    process.stdout.write(
      JSON.stringify(
        {
          era: process.env.BENCH_ERA === 'modern' ? 'modern' : 'legacy',
          cli: process.env.GRIMOIRE_BENCH_CLI ?? 'this build',
          samples: stacks.length,
          p50_ms: row.p50_ms,
          cpu_us_per_call: round(row.cpu_ms_per_call * 1000, 1),
          us_per_call: perCall,
        },
        null,
        2,
      ) + '\n',
    );
  } finally {
    scratch.cleanup();
  }
}

void main();
