// `npm run lint`: installs this folder's ESLint and Prettier the first time (or when its lock file
// changed), checks the import layers (check-layers.mjs against layers.mjs), checks the formatting
// (.prettierrc.json) and the lines too long to format (long-lines.mjs), then lints the repository with
// eslint.config.mjs. Arguments go to ESLint (e.g. `npm run lint -- --fix`). `npm run format` (this file
// with --format) rewrites the formatting.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const installed = path.join(here, 'node_modules', '.package-lock.json');
const lock = path.join(here, 'package-lock.json');

const run = (command, args, cwd) =>
  spawnSync(command, args, { cwd, stdio: 'inherit', shell: process.platform === 'win32' }).status ?? 1;

if (!fs.existsSync(installed) || fs.statSync(installed).mtimeMs < fs.statSync(lock).mtimeMs) {
  console.error('installing ESLint and Prettier into tools/lint/ (once)');
  const status = run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], here);
  if (status !== 0) process.exit(status);
}
const prettierBin = path.join(here, 'node_modules', 'prettier', 'bin', 'prettier.cjs');
if (process.argv[2] === '--format')
  process.exit(run(process.execPath, [prettierBin, '--write', '--log-level=warn', '.'], root));
const layers = run(process.execPath, [path.join(here, 'check-layers.mjs')], root);
const prettier = run(process.execPath, [prettierBin, '--check', '--log-level=warn', '.'], root);
if (prettier !== 0) console.error('formatting: run `npm run format` to rewrite the files above');
const longLines = run(process.execPath, [path.join(here, 'long-lines.mjs')], root);
const eslint = run(
  process.execPath,
  [
    path.join(here, 'node_modules', 'eslint', 'bin', 'eslint.js'),
    ...(process.argv.length > 2 ? process.argv.slice(2) : ['.']),
  ],
  root,
);
process.exit(layers || prettier || longLines || eslint);
