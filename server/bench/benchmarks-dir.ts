import * as path from 'node:path';
import { packageRoot } from '../config/paths.js';

/** The development sets that ship with the repository (test/fixtures/benchmarks/README.md has their provenance and licences). */
export const BUNDLED_BENCHMARKS = path.join(packageRoot, 'test', 'fixtures', 'benchmarks');

/** The folder of development sets: the one named (--benchmarks DIR), else $GRIMOIRE_BENCHMARKS, else the repository's own. */
export function benchmarksDir(named?: string, env: NodeJS.ProcessEnv = process.env): string {
  return named ?? (env.GRIMOIRE_BENCHMARKS || BUNDLED_BENCHMARKS);
}
