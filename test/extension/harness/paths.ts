/** Where the real-VS-Code harness keeps everything: under the repository's .vscode-test/ (gitignored). */
import * as path from 'node:path';
import { NODE_MAJOR, node22 } from '../../helpers/node22.js';

export const CODE_SERVER_VERSION = '4.103.2';
export { NODE_MAJOR };

export const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');
export const base = path.join(repoRoot, '.vscode-test');

export const paths = {
  npmCache: path.join(base, 'npm-cache'),
  tmp: path.join(base, 'tmp'),
  nodePrefix: node22.prefix,
  nodeHome: node22.home,
  node: node22.binary,
  codeServerPrefix: path.join(base, 'code-server'),
  vscode: path.join(base, 'code-server', 'node_modules', 'code-server', 'lib', 'vscode'),
  serverMain: path.join(base, 'code-server', 'node_modules', 'code-server', 'lib', 'vscode', 'out', 'server-main.js'),
  readyMarker: path.join(base, 'code-server', `.ready-${CODE_SERVER_VERSION}`),
  /** One test run's state, recreated each time. */
  run: path.join(base, 'run'),
  /** Screenshots, logs and timings of the last run in VS Code (kept with the test output). */
  output: path.join(repoRoot, 'out', 'test-output', 'vscode'),
  /** The dashboard page's own browser test. */
  browserOutput: path.join(repoRoot, 'out', 'test-output', 'browser'),
  suite: path.join(repoRoot, 'out', 'test', 'extension', 'suite', 'index.js'),
  chromium: '/usr/bin/chromium',
};
