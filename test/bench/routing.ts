/**
 * The resolver on the development sets (../shared/benchmarks), lexical, server level, as
 * `grimoire bench` measures it. Prints JSON. `--check` fails (exit 1) when any set's hit@1 is
 * more than 3 points below test/bench/routing-baseline.json; `--record` rewrites that file.
 * Run: npm run bench:routing [-- --check | --record]
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { devSets } from '../../server/bench/calibrate.js';
import { benchPowers, readJsonl, type BenchQuery, type BenchServer, type BenchTool } from '../../server/bench/dataset.js';
import { runBench } from '../../server/bench/run-bench.js';
import type { BenchSummary } from '../../server/bench/metrics.js';
import { defaultSettings } from '../../server/config/settings.js';
import { DEFAULT_CALIBRATIONS } from '../../server/resolve/default-calibration.js';
import { HybridResolver } from '../../server/resolve/hybrid-resolver.js';
import { repoRoot } from '../helpers/temp.js';

const benchmarks = process.env.GRIMOIRE_BENCHMARKS ?? path.join(repoRoot, '..', 'shared', 'benchmarks');
const baselineFile = path.join(repoRoot, 'test', 'bench', 'routing-baseline.json');
const TOLERANCE = 0.03;

async function main(): Promise<number> {
  if (!fs.existsSync(benchmarks)) {
    process.stderr.write(`routing bench: no benchmarks at ${benchmarks}; set GRIMOIRE_BENCHMARKS to the folder of ../shared/benchmarks.\n`);
    return 2;
  }
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
  if (process.argv.includes('--record')) {
    const baseline = Object.fromEntries(Object.entries(results).map(([name, s]) => [name, { hit_at_1: s.hit_at_1, hit_at_3: s.hit_at_3, mrr: s.mrr }]));
    fs.writeFileSync(baselineFile, JSON.stringify(baseline, null, 2) + '\n');
    process.stderr.write(`recorded ${baselineFile}\n`);
  }
  if (process.argv.includes('--check')) {
    const baseline = JSON.parse(fs.readFileSync(baselineFile, 'utf8')) as Record<string, { hit_at_1: number }>;
    const drops = Object.entries(baseline).filter(([name, b]) => !results[name] || results[name].hit_at_1 < b.hit_at_1 - TOLERANCE);
    for (const [name, b] of Object.entries(baseline)) {
      process.stderr.write(`${name}: hit@1 ${results[name]?.hit_at_1} (recorded ${b.hit_at_1})\n`);
    }
    if (drops.length > 0) {
      process.stderr.write(`routing regression: hit@1 fell more than ${TOLERANCE * 100} points on ${drops.map(([n]) => n).join(', ')}\n`);
      return 1;
    }
    process.stderr.write('routing: no set fell more than 3 points below its recorded hit@1\n');
  }
  return 0;
}

main().then((code) => (process.exitCode = code));
