/**
 * Resolve latency and memory at 500, 5,000 and 20,000 tools, lexical: the MetaTool catalog
 * replicated (each copy renamed) and grouped ten tools to a power. Prints JSON.
 * Run: npm run bench:scale   (the MetaTool set of test/fixtures/benchmarks, or $GRIMOIRE_BENCHMARKS)
 */
import * as path from 'node:path';
import { benchmarksDir } from '../../server/bench/dataset.js';
import { readJsonl, type BenchQuery, type BenchTool } from '../../server/bench/dataset.js';
import { DEFAULT_CALIBRATIONS } from '../../server/resolve/default-calibration.js';
import { HybridResolver } from '../../server/resolve/hybrid-resolver.js';
import type { PowerDocument } from '../../server/resolve/types.js';

const benchmarks = benchmarksDir();
const TOOLS_PER_POWER = 10;

function catalog(tools: BenchTool[], size: number): PowerDocument[] {
  const powers: PowerDocument[] = [];
  for (let i = 0; i < size; i += 1) {
    const tool = tools[i % tools.length];
    const copy = Math.floor(i / tools.length);
    if (i % TOOLS_PER_POWER === 0)
      powers.push({ name: `power-${powers.length}`, description: tool.description ?? '', keywords: [], tools: [] });
    powers[powers.length - 1].tools.push({
      name: `${tool.name}_${copy}`,
      description: tool.description,
      id: `${tool.tool_id}#${copy}`,
    });
  }
  return powers;
}

function percentiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] * 100) / 100;
  return { p50_ms: at(0.5), p95_ms: at(0.95), max_ms: at(1) };
}

async function main(): Promise<void> {
  const tools = readJsonl<BenchTool>(path.join(benchmarks, 'metatool', 'tools.jsonl'));
  const queries = readJsonl<BenchQuery>(path.join(benchmarks, 'metatool', 'queries_single.jsonl'))
    .slice(0, 300)
    .map((q) => q.query);
  const results = [];
  for (const size of [500, 5_000, 20_000]) {
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const resolver = new HybridResolver(DEFAULT_CALIBRATIONS);
    const powers = catalog(tools, size);
    let started = performance.now();
    resolver.index(powers);
    const indexMs = performance.now() - started;
    global.gc?.();
    const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
    const resolve: number[] = [];
    const toolRanking: number[] = [];
    for (const query of queries) {
      started = performance.now();
      await resolver.rank(query);
      resolve.push(performance.now() - started);
      started = performance.now();
      await resolver.rankTools(query);
      toolRanking.push(performance.now() - started);
    }
    started = performance.now();
    resolver.index(powers.map((p, i) => (i === 0 ? { ...p, description: `${p.description} changed` } : p)));
    const reindexOneMs = performance.now() - started;
    results.push({
      tools: size,
      powers: powers.length,
      index_ms: Math.round(indexMs),
      reindex_after_one_power_changed_ms: Math.round(reindexOneMs),
      index_heap_mb: Math.round(heapMb * 10) / 10,
      resolve: percentiles(resolve),
      rank_tools: percentiles(toolRanking),
    });
  }
  process.stdout.write(JSON.stringify({ queries: queries.length, mode: 'lexical', results }, null, 2) + '\n');
}

void main();
