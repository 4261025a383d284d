/** `grimoire spells check [FILE|DIR]... [--json]`: the editor's spell checker, for scripts and CI. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { resolvePaths } from '../../shared/grimoire-paths.js';
import { checkSpells, type CheckedFile } from '../spells/check-files.js';
import type { CliArgs } from './args.js';

export async function spellsCommand(targets: string[], args: CliArgs): Promise<number> {
  const env = process.env;
  const defaults = [resolvePaths(env).home, path.join(process.cwd(), '.grimoire')];
  const given = targets.length > 0;
  const checked: CheckedFile[] = await checkSpells(given ? targets : defaults.filter((dir) => fs.existsSync(dir)), {
    env,
    dataDir: resolvePaths(env).data,
    mustExist: given,
  });
  const errors = checked.reduce(
    (sum, file) => sum + file.problems.filter((problem) => problem.severity === 'error').length,
    0,
  );
  const warnings = checked.reduce(
    (sum, file) => sum + file.problems.filter((problem) => problem.severity === 'warning').length,
    0,
  );
  if (args.json) {
    process.stdout.write(
      JSON.stringify(
        {
          files: checked.map((file) => ({
            file: file.file,
            power: file.power,
            problems: file.problems.map(({ quickFix: _, ...problem }) => ({
              ...problem,
              line: problem.range.start.line + 1,
              column: problem.range.start.character + 1,
            })),
          })),
          errors,
          warnings,
        },
        null,
        2,
      ) + '\n',
    );
  } else {
    for (const file of checked) for (const line of file.lines) process.stdout.write(line + '\n');
    process.stdout.write(`${checked.length} spell file(s) checked: ${errors} error(s), ${warnings} warning(s)\n`);
  }
  return errors > 0 ? 1 : 0;
}
