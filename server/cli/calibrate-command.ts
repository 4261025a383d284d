import * as fs from 'node:fs';
import * as path from 'node:path';
import { calibrate } from '../bench/calibrate.js';
import { packageRoot } from '../config/paths.js';
import { defaultSettings } from '../config/settings.js';
import { HYBRID_PRIOR } from '../resolve/default-calibration.js';
import { UsageError, type CliArgs } from './args.js';

/**
 * `grimoire calibrate --benchmarks DIR [--write]`: fits the confidence model on the development
 * sets, prints the fit and the activation precision it gives on each set (and across sets), and
 * with --write stores it in server/resolve/calibration.json.
 */
export async function calibrateCommand(args: CliArgs): Promise<number> {
  if (!args.benchmarks) throw new UsageError('calibrate needs --benchmarks DIR (the folder of ../shared/benchmarks).');
  const threshold = defaultSettings().resolve.activateThreshold;
  const result = calibrate(args.benchmarks, threshold);
  const lexical = {
    ...result.model,
    fitted: {
      command: 'grimoire calibrate --benchmarks ../shared/benchmarks --write',
      sets: result.checks.map((c) => c.set),
      threshold,
      checks: result.checks,
      held_out: result.held_out,
    },
  };
  const file = { lexical, hybrid: { ...HYBRID_PRIOR, lead: lexical.lead, strength: lexical.strength, coverage: lexical.coverage, bias: lexical.bias } };
  if (args.write) {
    const target = path.join(packageRoot, 'server', 'resolve', 'calibration.json');
    fs.writeFileSync(target, JSON.stringify(file, null, 2) + '\n');
    process.stderr.write(`wrote ${target}\n`);
  }
  process.stdout.write(JSON.stringify(file, null, 2) + '\n');
  return 0;
}
