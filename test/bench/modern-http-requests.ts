/**
 * What a 2026-07-28 request costs over Streamable HTTP, where every request stands alone: a real
 * gateway (`serve --http --demo`), the SDK's v2 Client pinned to 2026-07-28, and N sequential
 * requests of each kind: `server/discover` (answered by the SDK from the request's server: the
 * request's own cost), `tools/list` (the client's cache bypassed; the gateway's tools, and the
 * token ledger's count of what the agent was shown) and `call_tool_read` of the demo power
 * `everything:echo` (a whole call). Prints, per kind, p50 and p95
 * and the gateway's CPU per request (/proc), median of BENCH_ROUNDS fresh gateways.
 *
 * Run: npm run bench:modern-http   (BENCH_REQUESTS=N per kind, default 1,000, after BENCH_WARMUP=200;
 * BENCH_ROUNDS, default 3; GRIMOIRE_BENCH_CLI=path to another build's out/server/cli/main.js;
 * BENCH_STORE=postgres: the gateway on a PostgreSQL cluster this script starts, as a team replica)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { DATABASE_URL_ENV } from '../../server/store/open-store.js';
import { fetchWithOwnSignal } from '../../server/upstream/own-signal-fetch.js';
import { gatewayEnv } from '../helpers/gateway-process.js';
import { startPgCluster } from '../helpers/postgres.js';
import { cliPath, tempDir } from '../helpers/temp.js';
import { median, processCpuMs, round } from './figures.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const cli = process.env.GRIMOIRE_BENCH_CLI ? path.resolve(process.env.GRIMOIRE_BENCH_CLI) : cliPath;

interface Figures {
  p50_ms: number;
  p95_ms: number;
  gateway_cpu_ms_per_request: number | null;
}

const KINDS: Record<string, (client: Client, i: number) => Promise<unknown>> = {
  'server/discover': (client) => client.discover(),
  'tools/list': (client) => client.listTools(undefined, { cacheMode: 'bypass' }),
  call_tool_read: (client, i) =>
    client.callTool({
      name: 'call_tool_read',
      arguments: { name: 'everything:echo', args: { message: `m${i}` }, intent: { operation_type: 'read' } },
    }),
};

async function measure(
  client: Client,
  pid: number,
  request: (client: Client, i: number) => Promise<unknown>,
): Promise<Figures> {
  for (let i = 0; i < WARMUP; i++) await request(client, i);
  const times: number[] = [];
  const cpuBefore = processCpuMs(pid);
  for (let i = 0; i < REQUESTS; i++) {
    const start = process.hrtime.bigint();
    await request(client, i);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  const cpuAfter = processCpuMs(pid);
  times.sort((a, b) => a - b);
  return {
    p50_ms: round(times[Math.floor(times.length / 2)]!),
    p95_ms: round(times[Math.floor(times.length * 0.95)]!),
    gateway_cpu_ms_per_request:
      cpuBefore === null || cpuAfter === null ? null : round((cpuAfter - cpuBefore) / REQUESTS),
  };
}

async function round1(env: Record<string, string>): Promise<Record<string, Figures>> {
  const child = spawn(process.execPath, [cli, 'serve', '--http', '--demo', '--no-imports'], {
    env,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  try {
    const line = await new Promise<string>((resolve, reject) => {
      readline.createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`the gateway exited (${code}) before printing its address`)));
    });
    const { url, token } = JSON.parse(line) as { url: string; token: string };
    const client = new Client(
      { name: 'bench', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
        fetch: fetchWithOwnSignal(),
      }),
    );
    try {
      const activated = await client.callTool({ name: 'activate_power', arguments: { name: 'everything' } });
      if (activated.isError) throw new Error(`activate_power everything failed: ${JSON.stringify(activated.content)}`);
      const figures: Record<string, Figures> = {};
      for (const [kind, request] of Object.entries(KINDS)) figures[kind] = await measure(client, child.pid!, request);
      return figures;
    } finally {
      await client.close();
    }
  } finally {
    await stop(child);
  }
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function main(): Promise<void> {
  const home = tempDir('grimoire-bench-modern-http-');
  const cluster = process.env.BENCH_STORE === 'postgres' ? await startPgCluster({ fsync: true }) : undefined;
  const env = gatewayEnv(
    { home: home.dir, data: path.join(home.dir, 'data') },
    cluster ? { [DATABASE_URL_ENV]: cluster.url() } : {},
  );
  try {
    const rounds: Array<Record<string, Figures>> = [];
    for (let index = 0; index < ROUNDS; index++) rounds.push(await round1(env));
    const kinds = Object.keys(KINDS).map((kind) => {
      const of = (key: keyof Figures) => rounds.map((r) => r[kind]![key]).filter((v): v is number => v !== null);
      const cpu = of('gateway_cpu_ms_per_request');
      return {
        request: kind,
        p50_ms: median(of('p50_ms')),
        p95_ms: median(of('p95_ms')),
        gateway_cpu_ms_per_request: cpu.length ? median(cpu) : null,
        p50_by_round: of('p50_ms'),
      };
    });
    console.log(
      JSON.stringify(
        { cli, store: cluster ? 'postgres' : 'file', requests: REQUESTS, warmup: WARMUP, rounds: ROUNDS, kinds },
        null,
        2,
      ),
    );
  } finally {
    cluster?.stop();
    home.cleanup();
  }
}

void main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
