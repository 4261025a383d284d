/**
 * The extension test entry (`extensionTestsPath`): VS Code loads it into the extension host and calls
 * run(); a rejection fails the run. Used by the Playwright harness and the @vscode/test-electron runner.
 */
import { runAll } from './runner.js';
import './tests.js';
import './routing.js';
import './workspace-trust.js';

export async function run(): Promise<void> {
  const { failed } = await runAll((line) => console.log(line));
  if (failed > 0) throw new Error(`${failed} extension test(s) failed`);
}
