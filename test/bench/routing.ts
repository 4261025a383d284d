/**
 * The resolver on the development sets (test/fixtures/benchmarks, or $GRIMOIRE_BENCHMARKS), lexical, server level, as
 * `grimoire bench` measures it: MetaTool single and multi, MCP-Bench vague and explicit, each
 * MCP-Bench set with and without its tool lists. Prints JSON.
 * `--check` fails (exit 1) when any set's hit@1 or hit@3 is more than 3 points, or its activated
 * precision more than 3 points, below test/bench/routing-baseline.json. `--record` rewrites that
 * file, after the check when both are given: a run is always checked against the baseline it
 * found, never against the one it writes.
 * Run: npm run bench:routing [-- --check] [-- --record]
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { benchmarksDir } from '../../server/bench/dataset.js';
import { devSets } from '../../server/bench/calibrate.js';
import {
  benchPowers,
  readJsonl,
  type BenchQuery,
  type BenchServer,
  type BenchTool,
} from '../../server/bench/dataset.js';
import { runBench } from '../../server/bench/run-bench.js';
import type { BenchSummary } from '../../server/bench/metrics.js';
import { defaultSettings } from '../../server/config/settings.js';
import { DEFAULT_CALIBRATIONS } from '../../server/resolve/default-calibration.js';
import { HybridResolver } from '../../server/resolve/hybrid-resolver.js';
import { repoRoot } from '../helpers/temp.js';

const benchmarks = benchmarksDir();
const baselineFile = path.join(repoRoot, 'test', 'bench', 'routing-baseline.json');
const TOLERANCE = 0.03;
const GATED = ['hit_at_1', 'hit_at_3', 'activated_precision'] as const;

type Gated = Record<(typeof GATED)[number], number | null>;

async function main(): Promise<number> {
  if (!fs.existsSync(benchmarks)) {
    process.stderr.write(
      `routing bench: no benchmarks at ${benchmarks}; set GRIMOIRE_BENCHMARKS to a folder of development ` +
        `sets (the layout of test/fixtures/benchmarks).\n`,
    );
    return 2;
  }
  const found = fs.existsSync(baselineFile)
    ? (JSON.parse(fs.readFileSync(baselineFile, 'utf8')) as Record<string, Gated>)
    : undefined;
  const results: Record<string, BenchSummary> = {};
  for (const set of devSets(benchmarks)) {
    const powers = benchPowers(readJsonl<BenchServer>(set.servers), set.tools ? readJsonl<BenchTool>(set.tools) : []);
    const { summary } = await runBench({
      resolver: new HybridResolver(DEFAULT_CALIBRATIONS),
      powers,
      queries: readJsonl<BenchQuery>(set.queries),
      level: 'server',
      queryField: set.queryField,
      thresholds: defaultSettings().resolve,
    });
    results[set.name] = summary;
  }
  process.stdout.write(JSON.stringify(results, null, 2) + '\n');
  let code = 0;
  if (process.argv.includes('--check')) code = check(results, found);
  if (process.argv.includes('--record')) {
    const baseline = Object.fromEntries(
      Object.entries(results).map(([name, s]) => [name, Object.fromEntries(GATED.map((key) => [key, s[key]]))]),
    );
    fs.writeFileSync(baselineFile, JSON.stringify(baseline, null, 2) + '\n');
    process.stderr.write(`recorded ${baselineFile}\n`);
  }
  return code;
}

function check(results: Record<string, BenchSummary>, baseline: Record<string, Gated> | undefined): number {
  if (!baseline) {
    process.stderr.write(`routing: no baseline at ${baselineFile} to check against\n`);
    return 1;
  }
  const failures: string[] = Object.keys(results)
    .filter((name) => !baseline[name])
    .map((name) => `${name}: measured but not in the baseline (record it)`);
  for (const [name, recorded] of Object.entries(baseline)) {
    const now = results[name];
    if (!now) {
      failures.push(`${name}: not measured`);
      continue;
    }
    for (const key of GATED) {
      const before = recorded[key];
      const after = now[key];
      process.stderr.write(`${name}: ${key} ${after} (recorded ${before})\n`);
      if (before === null || before === undefined) continue;
      if (after === null) {
        // No activation at all is a precision nobody can fault, but a set that used to activate and no longer does has lost something.
        if (key === 'activated_precision')
          failures.push(`${name}: no query auto-activated any more (recorded precision ${before})`);
        continue;
      }
      if (after < before - TOLERANCE) failures.push(`${name}: ${key} ${after}, recorded ${before}`);
    }
  }
  if (failures.length > 0) {
    process.stderr.write(
      `routing regression (more than ${TOLERANCE * 100} points below the baseline):\n  ${failures.join('\n  ')}\n`,
    );
    return 1;
  }
  process.stderr.write(
    `routing: no set fell more than ${TOLERANCE * 100} points below its recorded hit@1, hit@3 or activated precision\n`,
  );
  return 0;
}

main().then((code) => (process.exitCode = code));
