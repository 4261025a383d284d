/** What the suite's test files share about the workspace: its folder, and approving a server's launch as the user would. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { waitFor } from './runner.js';

export function workspaceFolder(): string {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  assert.ok(folder, 'the tests run in a workspace');
  return folder;
}

/**
 * A workspace spell's or the workspace mcp.json's server runs once the user approved its launch.
 * VS Code refuses to show the modal while extension tests run, so the user approves from a terminal:
 * `grimoire powers approve` (retried until the server is on disk and loaded). `imported`: it comes
 * from the workspace's mcp.json, which the command line reads with its imports on.
 */
export async function approveLaunch(name: string, imported = false): Promise<void> {
  const cli = path.resolve(__dirname, '..', '..', '..', 'server', 'cli', 'main.js');
  await waitFor(
    () => {
      const approved = spawnSync(
        process.execPath,
        [cli, 'powers', 'approve', name, '--workspace', workspaceFolder(), ...(imported ? [] : ['--no-imports'])],
        { encoding: 'utf8', env: process.env, timeout: 30_000 },
      );
      return approved.status === 0;
    },
    30_000,
    `'${name}' approved from a terminal`,
  );
}
