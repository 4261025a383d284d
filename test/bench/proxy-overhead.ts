/**
 * The gateway's own cost on a tool call: the same `echo` of server-everything called directly and
 * through the gateway, in one run, over stdio and Streamable HTTP, one at a time and 20 at a time.
 * Prints p50 / p95 / calls per second per row and the overhead (difference and ratio) as JSON, and
 * the CPU time the answering process (the server directly, the gateway alone otherwise) spent per
 * call, from /proc: on a loaded machine that moves far less than the wall-clock figures.
 * Each row also gives the CPU per call of the bench itself (the client) and, through the gateway, of
 * the gateway's child processes (the server), and the answering process's resident set before and
 * after its measured calls, and how busy all of them kept the machine's cores (`machine_busy`); each
 * comparison gives the CPU of all of them per call
 * through the gateway as a multiple of direct (`cpu_ratio`): once the cores are busy (20 at a time
 * on a small machine), throughput through the gateway tends to direct's divided by that.
 * Each row first makes BENCH_WARMUP calls (default 2,000) at its own concurrency, unmeasured, and
 * waits until the answering process is idle: a gateway runs for hours, and its first calls measure
 * V8's compiler more than the calls. Optimizing goes on for longer than the warm-up: on a 2-core
 * machine V8's helper threads (mostly its optimizing compiler) still spend 0.05-0.07 ms per call
 * over calls 2,000-6,000 at 20 at a time (BENCH_THREADS=1 prints CPU per thread), and about nothing
 * after 30,000. BENCH_WINDOW=2000 BENCH_WARMUP=10 BENCH_CALLS=40000 prints the curve: calls/s and
 * the answering process's CPU per call of each window of 2,000 calls, on stderr. The direct rows are
 * warmed the same way. BENCH_WARMUP=50 gives the cold figures of a just-started process.
 * The whole set runs BENCH_ROUNDS times (default 3), each round with fresh processes and the
 * gateway and direct rows in the other order than the round before; every figure printed is the
 * median over the rounds, and the throughput ratio and added p50 are also given round by round.
 * One round alone moves by a quarter on a shared machine (a process landing on a busy core, the
 * machine's load changing between rows).
 * Run: npm run bench:proxy   (BENCH_STORE=postgres: on PostgreSQL; BENCH_CALLS=N measured calls per row, default at least 2,000 and at
 * least BENCH_MIN_SECONDS; GRIMOIRE_BENCH_CLI=path
 * to another build's out/server/cli/main.js to measure that build instead, e.g. main's;
 * BENCH_TARGETS='gateway stdio,direct http' and BENCH_CONCURRENCY=1 to run only some rows;
 * BENCH_TARGETS='direct stdio,gateway stdio,floor stdio' adds the floor: a proxy that only parses
 * and re-serializes each line (floor-proxy.ts), what any gateway in its own process costs here,
 * and the gateway against it (against: 'floor stdio');
 * BENCH_ERA=modern: the gateway rows as a 2026-07-28 client (the SDK's v2 Client pinned, calling
 * through call_tool_read; the direct rows stay the server's own 2025 session);
 * BENCH_STRACE=DIR to count the answering process's syscalls over each row's measured calls with
 * `strace -c -f -p`, one summary file per row in DIR; traced rows run slower).
 * The HTTP client is the SDK's with the gateway's own fetch for HTTP powers (fetchWithOwnSignal),
 * for both HTTP rows: with the SDK's default, thousands of calls pile listeners on one AbortSignal
 * and Node prints a warning per call.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttpTransport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioTransport } from '@modelcontextprotocol/client/stdio';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { fetchWithOwnSignal } from '../../server/upstream/own-signal-fetch.js';
import { DATABASE_URL_ENV } from '../../server/store/open-store.js';
import { gatewayEnv } from '../helpers/gateway-process.js';
import { startPgCluster } from '../helpers/postgres.js';
import { cliPath, repoRoot, tempDir } from '../helpers/temp.js';
import { median, round } from './figures.js';

const CALLS = Number(process.env.BENCH_CALLS ?? 2000);
/**
 * A row goes on past CALLS until it has run this long (default 2 s; 0 with BENCH_CALLS given, so
 * that BENCH_CALLS=100 is exactly 100 calls). 2,000 calls at 20 at a time last 0.1-0.2 s here: the
 * gateway's deferred work (its records' writes every 20 ms, retention every 1,000 calls, compaction
 * in a pause) then partly falls after the row, and the row's figures swing by half between runs.
 */
const MIN_SECONDS = Number(process.env.BENCH_MIN_SECONDS ?? (process.env.BENCH_CALLS ? 0 : 2));
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const everything = path.join(
  repoRoot,
  'node_modules',
  '@modelcontextprotocol',
  'server-everything',
  'dist',
  'index.js',
);
const cli = process.env.GRIMOIRE_BENCH_CLI ? path.resolve(process.env.GRIMOIRE_BENCH_CLI) : cliPath;
/** BENCH_GATEWAY_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the gateway. */
const gatewayNodeArgs = (process.env.BENCH_GATEWAY_NODE_ARGS ?? '').split(' ').filter(Boolean);
/** BENCH_STORE=postgres: the gateways' store is a PostgreSQL cluster this script starts (fsync on), not the data dir's file. */
const STORE = process.env.BENCH_STORE ?? 'file';

interface Target {
  name: string;
  client: Pick<Client, 'callTool'> | Pick<ModernClient, 'callTool'>;
  /** The tool that echoes: `echo` directly, `everything__echo` through the gateway. */
  tool: string;
  /** A call's arguments (default: `{ message }`): a modern client calls through call_tool_read. */
  args?: (message: string) => Record<string, unknown>;
  /** The process that answers the client (the server directly, else the gateway). */
  pid: number | undefined;
  close(): Promise<void>;
}

interface Row {
  target: string;
  concurrency: number;
  calls: number;
  p50_ms: number;
  p95_ms: number;
  calls_per_s: number;
  /** CPU (user + system) of the answering process per call; null where /proc is missing. */
  cpu_ms_per_call: number | null;
  /** CPU of this process, the client, per call. */
  client_cpu_ms_per_call: number;
  /** CPU of the answering process's children (the server behind the gateway) per call; 0 directly. */
  upstream_cpu_ms_per_call: number | null;
  /** The answering process's resident set before and after the measured calls (a long row shows whether it keeps growing). */
  rss_mb_before_after: [number | null, number | null];
  /**
   * The share of the machine's cores that client, answering process and server kept busy over the
   * row (calls/s times their CPU per call, over the cores); null where /proc is missing. Where it
   * is below direct's, the calls also wait on hand-offs between processes, not only on CPU.
   */
  machine_busy: number | null;
}

/** utime + stime of a process in ms (Linux /proc; clock ticks at the usual 100 Hz). */
function cpuMs(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** CPU ms of a process's child processes (the powers a gateway started), or null without /proc. */
function childrenCpuMs(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean);
    return children.reduce((sum, child) => sum + (cpuMs(Number(child)) ?? 0), 0);
  } catch {
    return null;
  }
}

/** The resident set of a process in MB, from /proc/PID/status (VmRSS); null where there is none. */
function rssMb(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const kb = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? null : Math.round(Number(kb) / 1024);
  } catch {
    return null;
  }
}

/** CPU ms per thread name (comm) of a process, from /proc/PID/task (BENCH_THREADS=1 prints it per row). */
function threadCpuMs(pid: number | undefined): Map<string, number> {
  const threads = new Map<string, number>();
  if (!pid) return threads;
  try {
    for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      threads.set(
        `${name}:${tid}`,
        (threads.get(`${name}:${tid}`) ?? 0) + (Number(fields[11]) + Number(fields[12])) * 10,
      );
    }
  } catch {
    // the process is gone or /proc is missing
  }
  return threads;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** strace attached to the process until the returned stop() (SIGINT makes it write its summary). */
async function attachStrace(pid: number, file: string): Promise<() => Promise<void>> {
  const strace = spawn('strace', ['-c', '-f', '-p', String(pid), '-o', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  await waitForLine(strace, strace.stderr!, (line) => line.includes('attached'));
  return () =>
    new Promise<void>((resolve) => {
      strace.once('exit', () => resolve());
      strace.kill('SIGINT');
    });
}

/**
 * Waits (up to 10 s) until the answering process is idle between calls: work its first calls
 * started in the background (the gateway's token counter loads its encoder, ~1 s of CPU, in a
 * worker thread) is start-up, not per-call overhead, and would otherwise land in the first row.
 */
async function settle(pid: number | undefined): Promise<void> {
  const deadline = performance.now() + 10_000;
  let quiet = 0;
  while (quiet < 2 && performance.now() < deadline) {
    const before = cpuMs(pid);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const after = cpuMs(pid);
    if (before === null || after === null) return;
    quiet = after - before <= 20 ? quiet + 1 : 0;
  }
}

/** Makes calls while `more(calls made so far)` says so, `concurrency` of them in flight at any time; returns how many. */
async function callsAtOnce(
  more: (made: number) => boolean,
  concurrency: number,
  call: (i: number) => Promise<unknown>,
): Promise<number> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (more(next)) await call(next++);
    }),
  );
  return next;
}

async function measure(target: Target, concurrency: number): Promise<Row> {
  const call = (i: number) =>
    target.client.callTool({
      name: target.tool,
      arguments: target.args ? target.args(`bench ${i}`) : { message: `bench ${i}` },
    });
  await callsAtOnce((made) => made < WARMUP, concurrency, call);
  await settle(target.pid);
  const traceDir = process.env.BENCH_STRACE;
  const stopTrace =
    traceDir && target.pid
      ? await attachStrace(target.pid, path.join(traceDir, `${target.name.replace(' ', '-')}-c${concurrency}.txt`))
      : undefined;
  const latencies: number[] = [];
  const cpuBefore = cpuMs(target.pid);
  const rssBefore = rssMb(target.pid);
  const upstreamBefore = childrenCpuMs(target.pid);
  const clientBefore = process.cpuUsage();
  const threadsBefore = threadCpuMs(target.pid);
  const window = windowReporter(target, concurrency);
  const started = performance.now();
  const until = started + MIN_SECONDS * 1000;
  const calls = await callsAtOnce(
    (made) => made < CALLS || performance.now() < until,
    concurrency,
    async (i) => {
      const t0 = performance.now();
      const result = await call(i);
      latencies.push(performance.now() - t0);
      window(latencies.length);
      if (result.isError) throw new Error(`${target.name}: echo failed: ${JSON.stringify(result.content)}`);
    },
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = cpuMs(target.pid);
  const upstreamAfter = childrenCpuMs(target.pid);
  const client = process.cpuUsage(clientBefore);
  if (process.env.BENCH_THREADS) {
    const perThread = [...threadCpuMs(target.pid)]
      .filter(([name, ms]) => ms - (threadsBefore.get(name) ?? 0) > 0)
      .map(([name, ms]) => `${name} ${round((ms - (threadsBefore.get(name) ?? 0)) / calls, 2)}`);
    process.stderr.write(`${target.name} c=${concurrency} CPU ms per call by thread: ${perThread.join(', ')}\n`);
  }
  await stopTrace?.();
  latencies.sort((a, b) => a - b);
  const row: Omit<Row, 'machine_busy'> = {
    target: target.name,
    concurrency,
    calls,
    p50_ms: round(quantile(latencies, 0.5)),
    p95_ms: round(quantile(latencies, 0.95)),
    calls_per_s: Math.round(calls / seconds),
    cpu_ms_per_call: cpuBefore === null || cpuAfter === null ? null : round((cpuAfter - cpuBefore) / calls),
    client_cpu_ms_per_call: round((client.user + client.system) / 1000 / calls),
    upstream_cpu_ms_per_call:
      upstreamBefore === null || upstreamAfter === null ? null : round((upstreamAfter - upstreamBefore) / calls),
    rss_mb_before_after: [rssBefore, rssMb(target.pid)],
  };
  const busy =
    row.cpu_ms_per_call === null
      ? null
      : round((row.calls_per_s * machineCpu(row)) / 1000 / os.availableParallelism(), 2);
  return { ...row, machine_busy: busy };
}

/**
 * With BENCH_WINDOW=N: a function to call after each measured call that prints calls/s and the answering
 * process's CPU per call of every N calls.
 */
function windowReporter(target: Target, concurrency: number): (done: number) => void {
  const size = Number(process.env.BENCH_WINDOW ?? 0);
  if (!(size > 0)) return () => undefined;
  let since = performance.now();
  let cpu = cpuMs(target.pid);
  return (done) => {
    if (done % size !== 0) return;
    const now = performance.now();
    const cpuNow = cpuMs(target.pid);
    const perCall = cpu === null || cpuNow === null ? 'n/a' : round((cpuNow - cpu) / size, 3);
    process.stderr.write(
      `${target.name} c=${concurrency} calls ${done - size + 1}-${done} after the warm-up: ` +
        `${Math.round(size / ((now - since) / 1000))} calls/s, ${perCall} ms CPU per call\n`,
    );
    since = now;
    cpu = cpuNow;
  };
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Waits for a line on the child's stream that matches, failing if the child exits first. */
function waitForLine(
  child: ChildProcess,
  stream: NodeJS.ReadableStream,
  match: (line: string) => boolean,
): Promise<string> {
  const lines = readline.createInterface({ input: stream });
  return new Promise((resolve, reject) => {
    lines.on('line', (line) => {
      if (match(line)) resolve(line);
    });
    child.once('exit', (code) =>
      reject(new Error(`${child.spawnargs.join(' ')} exited (${code}) before it was ready`)),
    );
  });
}

async function directStdio(): Promise<Target> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [everything, 'stdio'],
    stderr: 'ignore',
  });
  await client.connect(transport);
  return { name: 'direct stdio', client, tool: 'echo', pid: transport.pid ?? undefined, close: () => client.close() };
}

async function directHttp(): Promise<Target> {
  const port = await freePort();
  const child = spawn(process.execPath, [everything, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await waitForLine(child, child.stderr!, (line) => line.includes('listening'));
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), { fetch: fetchWithOwnSignal() }),
  );
  return {
    name: 'direct http',
    client,
    tool: 'echo',
    pid: child.pid,
    close: async () => {
      await client.close();
      await stopChild(child);
    },
  };
}

async function activateEverything(client: Client): Promise<void> {
  const result = await client.callTool({ name: 'activate_power', arguments: { name: 'everything' } });
  if (result.isError) throw new Error(`activate_power everything failed: ${JSON.stringify(result.content)}`);
}

/**
 * BENCH_ERA=modern: the gateway rows with the SDK's v2 Client pinned to 2026-07-28, calling `everything:echo`
 * through call_tool_read (its list never has `everything__echo`).
 */
const MODERN = process.env.BENCH_ERA === 'modern';
const modernEcho = {
  tool: 'call_tool_read',
  args: (message: string) => ({ name: 'everything:echo', args: { message }, intent: { operation_type: 'read' } }),
};

async function modernTarget(
  name: string,
  client: ModernClient,
  pid: number | undefined,
  close: () => Promise<void>,
): Promise<Target> {
  const result = await client.callTool({ name: 'activate_power', arguments: { name: 'everything' } });
  if (result.isError) throw new Error(`activate_power everything failed: ${JSON.stringify(result.content)}`);
  return { name, client, ...modernEcho, pid, close };
}

async function gatewayStdio(env: Record<string, string>): Promise<Target> {
  if (MODERN) {
    const client = new ModernClient(
      { name: 'bench', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    const transport = new ModernStdioTransport({
      command: process.execPath,
      args: [...gatewayNodeArgs, cli, 'serve', '--stdio', '--demo', '--no-imports'],
      env,
      stderr: 'ignore',
    });
    await client.connect(transport);
    return modernTarget('gateway stdio', client, transport.pid ?? undefined, () => client.close());
  }
  const client = new Client({ name: 'bench', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...gatewayNodeArgs, cli, 'serve', '--stdio', '--demo', '--no-imports'],
    env,
    stderr: 'ignore',
  });
  await client.connect(transport);
  await activateEverything(client);
  return {
    name: 'gateway stdio',
    client,
    tool: 'everything__echo',
    pid: transport.pid ?? undefined,
    close: () => client.close(),
  };
}

/** The least any proxy costs (floor-proxy.ts): measured only when BENCH_TARGETS names 'floor stdio'. */
async function floorStdio(): Promise<Target> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(__dirname, 'floor-proxy.js'), everything],
    stderr: 'ignore',
  });
  await client.connect(transport);
  await activateEverything(client);
  return {
    name: 'floor stdio',
    client,
    tool: 'everything__echo',
    pid: transport.pid ?? undefined,
    close: () => client.close(),
  };
}

async function gatewayHttp(env: Record<string, string>): Promise<Target> {
  const child = spawn(process.execPath, [...gatewayNodeArgs, cli, 'serve', '--http', '--demo', '--no-imports'], {
    env,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const line = await waitForLine(child, child.stdout!, (text) => text.startsWith('{'));
  const { url, token } = JSON.parse(line) as { url: string; token: string };
  if (MODERN) {
    const modern = new ModernClient(
      { name: 'bench', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await modern.connect(
      new ModernHttpTransport(new URL(url), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
        fetch: fetchWithOwnSignal(),
      }),
    );
    return modernTarget('gateway http', modern, child.pid, async () => {
      await modern.close();
      await stopChild(child);
    });
  }
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
      fetch: fetchWithOwnSignal(),
    }),
  );
  await activateEverything(client);
  return {
    name: 'gateway http',
    client,
    tool: 'everything__echo',
    pid: child.pid,
    close: async () => {
      await client.close();
      await stopChild(child);
    },
  };
}

/** CPU per call of client, answering process and its children together. */
const machineCpu = (row: Omit<Row, 'machine_busy'>) =>
  row.client_cpu_ms_per_call + (row.cpu_ms_per_call ?? 0) + (row.upstream_cpu_ms_per_call ?? 0);

function overhead(rows: Row[], gateway: string, direct: string, concurrency: number) {
  const g = rows.find((r) => r.target === gateway && r.concurrency === concurrency);
  const d = rows.find((r) => r.target === direct && r.concurrency === concurrency);
  if (!g || !d) return undefined;
  return {
    gateway,
    against: direct,
    concurrency,
    added_p50_ms: round(g.p50_ms - d.p50_ms),
    added_p95_ms: round(g.p95_ms - d.p95_ms),
    p50_ratio: round(g.p50_ms / d.p50_ms, 2),
    throughput_ratio: round(g.calls_per_s / d.calls_per_s, 2),
    cpu_ratio:
      g.cpu_ms_per_call === null || d.cpu_ms_per_call === null ? null : round(machineCpu(g) / machineCpu(d), 2),
  };
}

type Overhead = NonNullable<ReturnType<typeof overhead>>;

/** Each numeric field of `records` (same keys, one per round) as its median over the rounds. */
function medians<T extends object>(records: T[]): T {
  const first = records[0]!;
  return Object.fromEntries(
    Object.entries(first).map(([key, value]) => [
      key,
      typeof value === 'number' ? median(records.map((r) => (r as Record<string, number>)[key]!)) : value,
    ]),
  ) as T;
}

async function runRound(index: number, env: Record<string, string>): Promise<{ rows: Row[]; overhead: Overhead[] }> {
  const rows: Row[] = [];
  const makers: Array<[string, () => Promise<Target>]> = [
    ['direct stdio', directStdio],
    ['gateway stdio', () => gatewayStdio(env)],
    ['direct http', directHttp],
    ['gateway http', () => gatewayHttp(env)],
    ['floor stdio', floorStdio],
  ];
  // Odd rounds measure each gateway before its direct counterpart, so a drift of the machine's speed over a run favours neither.
  const ordered = index % 2 === 0 ? makers : [makers[1]!, makers[0]!, makers[3]!, makers[2]!, makers[4]!];
  const only = process.env.BENCH_TARGETS?.split(',').map((name) => name.trim()) ?? [
    'direct stdio',
    'gateway stdio',
    'direct http',
    'gateway http',
  ];
  const concurrencies = (process.env.BENCH_CONCURRENCY ?? '1,20').split(',').map(Number);
  for (const [name, make] of ordered) {
    if (!only.includes(name)) continue;
    const target = await make();
    try {
      for (const concurrency of concurrencies) rows.push(await measure(target, concurrency));
    } finally {
      await target.close();
    }
  }
  const comparisons = [1, 20].flatMap((c) => [
    overhead(rows, 'gateway stdio', 'direct stdio', c),
    overhead(rows, 'gateway http', 'direct http', c),
    overhead(rows, 'gateway http', 'direct stdio', c),
    overhead(rows, 'floor stdio', 'direct stdio', c),
    overhead(rows, 'gateway stdio', 'floor stdio', c),
  ]);
  return { rows, overhead: comparisons.filter((o): o is Overhead => o !== undefined) };
}

async function main(): Promise<void> {
  const home = tempDir('grimoire-bench-');
  const cluster = STORE === 'postgres' ? await startPgCluster({ fsync: true }) : undefined;
  const env = gatewayEnv(
    { home: home.dir, data: path.join(home.dir, 'data') },
    cluster ? { [DATABASE_URL_ENV]: cluster.url() } : {},
  );
  const rounds: Array<{ rows: Row[]; overhead: Overhead[] }> = [];
  try {
    for (let index = 0; index < ROUNDS; index++) rounds.push(await runRound(index, env));
  } finally {
    cluster?.stop();
    home.cleanup();
  }
  const rows = rounds[0]!.rows.map(({ target, concurrency }) => {
    const byRound = rounds.map((r) => r.rows.find((row) => row.target === target && row.concurrency === concurrency)!);
    return { ...medians(byRound), calls_per_s_by_round: byRound.map((row) => row.calls_per_s) };
  });
  const overheads = rounds[0]!.overhead.map((o, i) => ({
    ...medians(rounds.map((r) => r.overhead[i]!)),
    throughput_ratio_by_round: rounds.map((r) => r.overhead[i]!.throughput_ratio),
    added_p50_ms_by_round: rounds.map((r) => r.overhead[i]!.added_p50_ms),
  }));
  process.stdout.write(
    JSON.stringify(
      {
        cli,
        store: STORE,
        rounds: ROUNDS,
        warmup_calls_per_row: WARMUP,
        min_calls_per_row: CALLS,
        min_seconds_per_row: MIN_SECONDS,
        rows,
        overhead: overheads,
      },
      null,
      2,
    ) + '\n',
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:proxy failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
