/**
 * Resolve latency on the demo powers: in process (the resolver itself, cached and uncached) and
 * over MCP stdio (`resolve_intent` round trips, which include JSON-RPC and process hops). Prints JSON.
 * Run: npm run bench:resolve
 */
import * as path from 'node:path';
import { createRuntime } from '../../server/runtime.js';
import { connectStdio, gatewayEnv } from '../helpers/gateway-process.js';
import { tempDir } from '../helpers/temp.js';

const QUERIES = [
  'read a file from my project',
  'remember that Alice prefers dark mode',
  'run the echo test',
  'list the files in the docs folder',
  'what do you know about the project decisions',
  'add two numbers',
  'book a flight to Lisbon',
  'search my notes for the release date',
  'edit the greeting function',
  'show environment variables of the server',
];

function percentiles(samples: number[]): { p50_ms: number; p95_ms: number; max_ms: number; n: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] * 1000) / 1000;
  return { p50_ms: at(0.5), p95_ms: at(0.95), max_ms: at(1), n: sorted.length };
}

async function main(): Promise<void> {
  const home = tempDir();
  const env = gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') });
  const runtime = await createRuntime({ env, demo: true, imports: false });
  runtime.gateway.ports.discoverUnknownPowers();
  await runtime.parts.discovery.idle();
  const tools = runtime.gateway.ports
    .powers()
    .reduce((sum, power) => sum + runtime.gateway.ports.toolsOf(power.name).length, 0);
  const uncached: number[] = [];
  const cached: number[] = [];
  for (let round = 0; round < 50; round += 1) {
    for (const query of QUERIES) {
      const unique = `${query} ${round}`;
      let started = performance.now();
      await runtime.gateway.ports.resolve(unique);
      uncached.push(performance.now() - started);
      started = performance.now();
      await runtime.gateway.ports.resolve(unique);
      cached.push(performance.now() - started);
    }
  }
  await runtime.close();

  const session = await connectStdio(['--demo', '--no-imports'], env);
  const overMcp: number[] = [];
  for (let round = 0; round <= 20; round += 1) {
    for (const query of QUERIES) {
      const started = performance.now();
      await session.client.callTool({ name: 'resolve_intent', arguments: { query: `${query} ${round}` } });
      // Round 0 starts the powers that activate: that is start-up cost, not resolve latency.
      if (round > 0) overMcp.push(performance.now() - started);
    }
  }
  await session.client.close();
  home.cleanup();
  process.stdout.write(
    JSON.stringify(
      {
        powers: 3,
        tools,
        in_process_uncached: percentiles(uncached),
        in_process_cached: percentiles(cached),
        resolve_intent_over_stdio: percentiles(overMcp),
      },
      null,
      2,
    ) + '\n',
  );
}

void main();
