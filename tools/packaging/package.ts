/**
 * `npm run package`: builds dist/ (vsce runs `vscode:prepublish`) and packs the .vsix with only what
 * .vscodeignore lets through; prints its path and exact size (vsce prints its file count as it packs).
 * `--target T` packs the platform build for VS Code's target T (linux-x64, darwin-arm64, win32-x64...):
 * the same, plus the semantic runtime for that platform (semantic-runtime.ts). Without it, the universal
 * build, which matches by words only.
 * Usage: node out/tools/packaging/package.js [--target T] [--out FILE]
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createVSIX } from '@vscode/vsce';
import { isRuntimeTarget, RUNTIME_TARGETS } from '../../server/resolve/semantic/runtime-builds.js';
import { root, TARGET_VARIABLE } from './bundle.js';

export const MARKETPLACE_README = 'docs/marketplace.md';

/** grimoire-<version>.vsix, or grimoire-<target>-<version>.vsix (vsce's own names). */
export function vsixPath(target?: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  return path.join(root, `${manifest.name}-${target ? `${target}-` : ''}${manifest.version}.vsix`);
}

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

async function main(): Promise<void> {
  const target = option('--target');
  if (target !== undefined && !isRuntimeTarget(target))
    throw new Error(
      `--target ${target}: platform builds exist for ${Object.keys(RUNTIME_TARGETS).join(', ')}; ` +
        `other platforms install the universal build (no --target)`,
    );
  const out = option('--out');
  const packagePath = out ? path.resolve(out) : vsixPath(target);
  // vsce runs the bundle (vscode:prepublish) in a child process: the target reaches it in the environment.
  if (target) process.env[TARGET_VARIABLE] = target;
  else delete process.env[TARGET_VARIABLE];
  // The Marketplace page is written for users (docs/marketplace.md); README.md is the developer's.
  const options = {
    cwd: root,
    dependencies: false,
    allowMissingRepository: true,
    readmePath: MARKETPLACE_README,
    changelogPath: 'CHANGELOG.md',
  } as const;
  await createVSIX({ ...options, packagePath, ...(target ? { target } : {}) });
  const bytes = fs.statSync(packagePath).size;
  console.log(`${path.relative(process.cwd(), packagePath)}: ${(bytes / 1024 / 1024).toFixed(2)} MB (${bytes} bytes)`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
