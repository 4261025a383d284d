import * as fs from 'node:fs';
import * as path from 'node:path';
import { benchmarksDir } from '../bench/dataset.js';
import { calibrate } from '../bench/calibrate.js';
import { packageRoot } from '../config/paths.js';
import { HYBRID_PRIOR } from '../resolve/default-calibration.js';
import { UsageError, type CliArgs } from './args.js';

/** The seeds' activation threshold: the fitted one is never below it. */
const THRESHOLD_FLOOR = 0.85;

/**
 * `grimoire calibrate [--benchmarks DIR] [--write]`: fits the confidence model on the development
 * sets with leave-one-set-out validation, chooses the activation threshold that keeps every set's
 * out-of-sample activated precision at .97 or more, prints both with the per-set figures, and with
 * --write stores them in server/resolve/calibration.json (the default of resolve.activateThreshold).
 * The sets are the repository's own (test/fixtures/benchmarks/) unless DIR or $GRIMOIRE_BENCHMARKS
 * names another folder.
 */
export async function calibrateCommand(args: CliArgs): Promise<number> {
  const dir = benchmarksDir(args.benchmarks);
  if (!fs.existsSync(dir))
    throw new UsageError(
      `calibrate: no development sets at ${dir} (--benchmarks DIR or GRIMOIRE_BENCHMARKS names another folder).`,
    );
  const result = calibrate(dir, THRESHOLD_FLOOR);
  const threshold = result.activate_threshold;
  const lexical = {
    ...result.model,
    fitted: {
      command: 'grimoire calibrate --write',
      data: 'test/fixtures/benchmarks',
      sets: result.in_sample.map((c) => c.set),
      threshold,
      validation: 'leave one set out (MCP-Bench with and without tool lists left out together)',
      out_of_sample: result.out_of_sample,
      in_sample: result.in_sample,
    },
  };
  const file = {
    activateThreshold: threshold,
    lexical,
    hybrid: {
      ...HYBRID_PRIOR,
      lead: lexical.lead,
      strength: lexical.strength,
      coverage: lexical.coverage,
      identity: lexical.identity,
      declared: lexical.declared,
      bias: lexical.bias,
    },
  };
  if (args.write) {
    const target = path.join(packageRoot, 'server', 'resolve', 'calibration.json');
    fs.writeFileSync(target, JSON.stringify(file, null, 2) + '\n');
    process.stderr.write(`wrote ${target}\n`);
  }
  process.stdout.write(JSON.stringify(file, null, 2) + '\n');
  return 0;
}
