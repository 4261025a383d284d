// `npm run lint`: installs this folder's ESLint the first time (or when its lock file changed), checks
// the import layers (check-layers.mjs against layers.mjs), then lints the repository with
// eslint.config.mjs. Arguments go to ESLint (e.g. `npm run lint -- --fix`).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const installed = path.join(here, 'node_modules', '.package-lock.json');
const lock = path.join(here, 'package-lock.json');

const run = (command, args, cwd) => spawnSync(command, args, { cwd, stdio: 'inherit', shell: process.platform === 'win32' }).status ?? 1;

if (!fs.existsSync(installed) || fs.statSync(installed).mtimeMs < fs.statSync(lock).mtimeMs) {
  console.error('installing ESLint into tools/lint/ (once)');
  const status = run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], here);
  if (status !== 0) process.exit(status);
}
const layers = run(process.execPath, [path.join(here, 'check-layers.mjs')], root);
const eslint = run(process.execPath, [path.join(here, 'node_modules', 'eslint', 'bin', 'eslint.js'), ...(process.argv.length > 2 ? process.argv.slice(2) : ['.'])], root);
process.exit(layers || eslint);
