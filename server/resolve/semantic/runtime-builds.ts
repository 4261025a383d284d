/**
 * Which builds of the .vsix carry the semantic runtime (transformers.js with onnxruntime-node's
 * binary for one platform; tools/packaging/semantic-runtime.ts writes it). The universal build
 * carries none. Keys are VS Code's target platforms (`vsce package --target`), values the folder
 * onnxruntime-node keeps that platform's binary in (bin/napi-v6/<platform>/<arch>).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const RUNTIME_TARGETS = {
  'linux-x64': 'linux/x64',
  'linux-arm64': 'linux/arm64',
  'darwin-arm64': 'darwin/arm64',
  'win32-x64': 'win32/x64',
  'win32-arm64': 'win32/arm64',
} as const;

export type RuntimeTarget = keyof typeof RUNTIME_TARGETS;

/** Where the gateway's bundle sits in the .vsix, below the package root (tools/packaging/bundle.ts). */
export const GATEWAY_BUNDLE_DIR = path.join('dist', 'server', 'process');
/** A platform build's runtime: dist/semantic/, with transformers.js as one file in it. */
export const BUNDLED_RUNTIME_DIR = path.join('dist', 'semantic');
export const BUNDLED_RUNTIME_ENTRY = 'transformers.mjs';

/** The runtime folder when `moduleDir` is the gateway's bundle (a .vsix); undefined in a checkout (out/), which imports the package. */
export function bundledRuntimeDir(moduleDir: string): string | undefined {
  if (!moduleDir.endsWith(path.sep + GATEWAY_BUNDLE_DIR)) return undefined;
  return path.join(moduleDir.slice(0, -GATEWAY_BUNDLE_DIR.length), BUNDLED_RUNTIME_DIR);
}

/**
 * The carried runtime's entry file when it holds this platform's binary; undefined in the universal build, or
 * in another platform's build.
 */
export function carriedRuntime(
  dir: string,
  platform: string = process.platform,
  arch: string = process.arch,
): string | undefined {
  const entry = path.join(dir, BUNDLED_RUNTIME_ENTRY);
  const binding = path.join(
    dir,
    'node_modules',
    'onnxruntime-node',
    'bin',
    'napi-v6',
    platform,
    arch,
    'onnxruntime_binding.node',
  );
  return fs.existsSync(entry) && fs.existsSync(binding) ? entry : undefined;
}

export function isRuntimeTarget(target: string): target is RuntimeTarget {
  return Object.hasOwn(RUNTIME_TARGETS, target);
}

/** VS Code's name for this machine's platform (musl Linux is `alpine-*`, which onnxruntime-node has no binary for). */
export function currentTarget(
  platform: string = process.platform,
  arch: string = process.arch,
  musl: boolean = isMusl(),
): string {
  return `${platform === 'linux' && musl ? 'alpine' : platform}-${arch}`;
}

function isMusl(): boolean {
  if (process.platform !== 'linux') return false;
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  return !header?.glibcVersionRuntime;
}

/** What a user of the universal build (or of another platform's build) can do to get semantic matching. */
export function runtimeAdvice(target: string = currentTarget()): string {
  if (isRuntimeTarget(target)) {
    return (
      `the ${target} build of Grimoire carries it: VS Code installs that build from the Marketplace on ` +
      `${target}, or install the Grimoire .vsix built for ${target}`
    );
  }
  return `no build of Grimoire carries an ONNX runtime for ${target} (builds with it: ${Object.keys(RUNTIME_TARGETS).join(', ')})`;
}
