/**
 * Start-up of `grimoire serve --stdio --demo`: time from spawn to the answer to `initialize` and to
 * the first `tools/list`, and the gateway's RSS once idle (Linux /proc). Raw JSON-RPC lines on the
 * child's pipes, so that no client library's own start-up is counted. RSS with 3 and 10 powers
 * active is the footprint bench's (test/bench/footprint.ts), run after this one.
 *
 *   npm run bench:startup                        this checkout, 7 runs, then the footprint bench
 *   node out/test/bench/startup.js --runs 3 --no-footprint --no-long-idle --root DIR
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { gatewayEnv } from '../helpers/gateway-process.js';
import { readProcess } from '../helpers/process-tree.js';
import { repoRoot, tempDir } from '../helpers/temp.js';
import { median } from './figures.js';

interface Run {
  initializeMs: number;
  toolsListMs: number;
  /**
   * CPU time (user + system) the gateway had used when its tools/list answer arrived: less sensitive to a
   * loaded machine than wall time.
   */
  toolsListCpuMs: number;
  tools: number;
  idleRssMb: number;
  /** RSS once the token worker's idle time has passed (last run only). */
  longIdleRssMb?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const TICK_MS = 10; // USER_HZ is 100 on Linux

function cpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return NaN;
  }
}

async function once(root: string, idleMs: number, longIdleMs: number | undefined): Promise<Run> {
  const home = tempDir('grimoire-startup-');
  const env = gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') });
  const cli = path.join(root, 'out', 'server', 'cli', 'main.js');
  const started = performance.now();
  const child = spawn(process.execPath, [cli, 'serve', '--stdio', '--demo', '--no-imports'], {
    env,
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const answers = new Map<number, (value: { at: number; cpu: number; message: Record<string, unknown> }) => void>();
  readline.createInterface({ input: child.stdout! }).on('line', (line) => {
    const message = JSON.parse(line) as { id?: number } & Record<string, unknown>;
    if (typeof message.id === 'number')
      answers.get(message.id)?.({ at: performance.now(), cpu: cpuMs(child.pid!), message });
  });
  const request = (id: number, method: string, params: unknown) => {
    const answered = new Promise<{ at: number; cpu: number; message: Record<string, unknown> }>((resolve) =>
      answers.set(id, resolve),
    );
    child.stdin!.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    return answered;
  };
  try {
    const init = await request(1, 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'startup-bench', version: '1.0.0' },
    });
    child.stdin!.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
    const list = await request(2, 'tools/list', {});
    const tools = ((list.message.result as { tools?: unknown[] } | undefined)?.tools ?? []).length;
    await sleep(idleMs);
    const rssKb = readProcess(child.pid!)?.rssKb ?? 0;
    let longIdleRssMb: number | undefined;
    if (longIdleMs !== undefined) {
      await sleep(longIdleMs - idleMs);
      longIdleRssMb = (readProcess(child.pid!)?.rssKb ?? 0) / 1024;
    }
    return {
      longIdleRssMb,
      initializeMs: init.at - started,
      toolsListMs: list.at - started,
      toolsListCpuMs: list.cpu,
      tools,
      idleRssMb: rssKb / 1024,
    };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.stdin!.end();
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(kill);
    home.cleanup();
  }
}

async function main(): Promise<void> {
  if (process.platform !== 'linux') throw new Error('this benchmark reads /proc: run it on Linux');
  const arg = (name: string) => {
    const at = process.argv.indexOf(name);
    return at > 0 ? process.argv[at + 1] : undefined;
  };
  const root = path.resolve(arg('--root') ?? repoRoot);
  const runs = Number(arg('--runs') ?? 7);
  const idleMs = Number(arg('--idle-ms') ?? 3000);
  // The token worker (started by the first tools/list's token accounting) ends 30 s after its last request.
  const longIdleMs = process.argv.includes('--no-long-idle') ? undefined : 60_000;
  const results: Run[] = [];
  console.log(`serve --stdio --demo (${root}), ${runs} runs, RSS read ${idleMs} ms after tools/list:`);
  for (let i = 0; i < runs; i++) {
    const run = await once(root, idleMs, i === runs - 1 ? longIdleMs : undefined);
    results.push(run);
    console.log(
      `  run ${i + 1}: initialize ${run.initializeMs.toFixed(0)} ms, ` +
        `first tools/list ${run.toolsListMs.toFixed(0)} ms (${run.tools} tools; ` +
        `gateway CPU by then ${run.toolsListCpuMs} ms), idle RSS ${run.idleRssMb.toFixed(0)} MB`,
    );
  }
  const pick = (f: (r: Run) => number) => results.map(f);
  const range = (values: number[], digits = 0) =>
    `median ${median(values).toFixed(digits)}, ${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)}`;
  console.log(`initialize answered:   ${range(pick((r) => r.initializeMs))} ms`);
  console.log(`first tools/list:      ${range(pick((r) => r.toolsListMs))} ms`);
  console.log(`CPU by tools/list:     ${range(pick((r) => r.toolsListCpuMs))} ms (user + system, 10 ms ticks)`);
  console.log(`gateway RSS at idle:   ${range(pick((r) => r.idleRssMb))} MB (${idleMs} ms after tools/list)`);
  const longIdle = results.at(-1)?.longIdleRssMb;
  if (longIdle !== undefined)
    console.log(
      `gateway RSS ${longIdleMs! / 1000} s after tools/list (token worker ended): ${longIdle.toFixed(0)} MB (last run)`,
    );
  if (!process.argv.includes('--no-footprint')) {
    console.log('\nRSS with powers active (test/bench/footprint.ts):');
    const footprint = spawn(
      process.execPath,
      [path.join(repoRoot, 'out', 'test', 'bench', 'footprint.js'), '--root', root],
      { stdio: 'inherit' },
    );
    const code = await new Promise<number | null>((resolve) => footprint.once('exit', resolve));
    if (code !== 0) throw new Error(`footprint bench exited with ${code}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
