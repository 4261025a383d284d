/**
 * The same extension suite in desktop VS Code, downloaded by @vscode/test-electron: for machines with
 * internet access (this repository's CI has none and uses harness/run.ts). Needs `npm run bundle` first.
 * The checks that read the rendered page need the Playwright harness; here they check the extension
 * host side only.
 * Usage: node out/test/extension/electron/run.js [--version stable|1.103.2]
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { base, repoRoot } from '../harness/paths.js';

async function main(): Promise<void> {
  const at = process.argv.indexOf('--version');
  const version = at >= 0 ? process.argv[at + 1] : 'stable';
  const run = path.join(base, 'electron-run');
  const workspace = path.join(run, 'workspace');
  fs.rmSync(run, { recursive: true, force: true });
  fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
  fs.writeFileSync(
    path.join(workspace, '.vscode', 'settings.json'),
    JSON.stringify(
      { 'grimoire.demoPowers': true, 'grimoire.imports.vscode': false, 'grimoire.imports.claudeDesktop': false },
      null,
      2,
    ),
  );
  await runTests({
    version,
    cachePath: path.join(base, 'electron'),
    extensionDevelopmentPath: repoRoot,
    extensionTestsPath: path.join(repoRoot, 'out', 'test', 'extension', 'suite', 'index.js'),
    extensionTestsEnv: { GRIMOIRE_HOME: path.join(run, 'grimoire-home') },
    launchArgs: [
      workspace,
      '--disable-extensions',
      '--disable-workspace-trust',
      `--user-data-dir=${path.join(run, 'user-data')}`,
    ],
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
