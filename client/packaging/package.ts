/**
 * `npm run package`: builds dist/ (vsce runs `vscode:prepublish`) and packs the .vsix with only what
 * .vscodeignore lets through; prints its path, size and file count.
 * Usage: node out/client/packaging/package.js [--out FILE]
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createVSIX, listFiles, PackageManager } from '@vscode/vsce';
import { root } from './bundle.js';

export const MARKETPLACE_README = 'docs/marketplace.md';

export function vsixPath(): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { name: string; version: string };
  return path.join(root, `${manifest.name}-${manifest.version}.vsix`);
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--out');
  const packagePath = at >= 0 ? path.resolve(process.argv[at + 1]) : vsixPath();
  // The Marketplace page is written for users (docs/marketplace.md); README.md is the developer's.
  const options = { cwd: root, dependencies: false, allowMissingRepository: true, readmePath: MARKETPLACE_README, changelogPath: 'CHANGELOG.md' } as const;
  await createVSIX({ ...options, packagePath });
  const files = await listFiles({ cwd: root, packageManager: PackageManager.None });
  const bytes = fs.statSync(packagePath).size;
  console.log(`${path.relative(process.cwd(), packagePath)}: ${(bytes / 1024 / 1024).toFixed(2)} MB (${bytes} bytes), ${files.length} files`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
