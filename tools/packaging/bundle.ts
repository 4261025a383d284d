/**
 * Builds everything the extension runs into dist/ (what the .vsix ships):
 *   dist/client/extension.js        extension host side (vscode external)
 *   dist/server/process/main.js     the gateway process, with child-supervisor-node.js (Windows), token-worker.js,
 *                                   sql-wasm.wasm and the tokenizer's ranks (o200k_base.json, read by main.js and the worker) beside it
 *   dist/webview/dashboard.{js,css} the dashboard, for the browser
 *   dist/demo-servers/...           the demo powers' npm servers, one file each
 *   dist/spell.schema.json          the spell schema (JSON Schema draft 7), from the zod definition
 *   dist/semantic/                  a platform build's semantic runtime (semantic-runtime.ts), when
 *                                   GRIMOIRE_VSIX_TARGET names a target (npm run package -- --target T sets it)
 * Usage: node out/tools/packaging/bundle.js
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { z } from 'zod';
import { RANKS_FILE, RANKS_MODULE } from '../../server/intel/tokens/tokenizer-core.js';
import { spellSchema } from '../../server/powers/spell-schema.js';
import {
  BUNDLED_RUNTIME_DIR,
  GATEWAY_BUNDLE_DIR,
  isRuntimeTarget,
  RUNTIME_TARGETS,
} from '../../server/resolve/semantic/runtime-builds.js';
import { writeSemanticRuntime } from './semantic-runtime.js';

export const root = path.resolve(__dirname, '..', '..', '..');
const dist = path.join(root, 'dist');
const serverDir = path.join(root, GATEWAY_BUNDLE_DIR);

/**
 * Loaded lazily when installed (the semantic resolver's model runtime, the store's native SQLite); never
 * needed to start, never in the gateway's bundle.
 */
const LAZY_NATIVE = [
  '@huggingface/transformers',
  'onnxruntime-node',
  'onnxruntime-web',
  'onnxruntime-common',
  'sharp',
  'pg-native',
  'better-sqlite3',
];
/** The platform a build is for (vsce's --target); unset for the universal build. */
export const TARGET_VARIABLE = 'GRIMOIRE_VSIX_TARGET';
const DEMO_SERVERS = ['server-everything', 'server-filesystem', 'server-memory'];

/** jsonc-parser's `main` is a UMD build whose factory requires its parts at run time, which esbuild cannot follow: bundle its ESM build. */
const JSONC_ESM = path.join(root, 'node_modules', 'jsonc-parser', 'lib', 'esm', 'main.js');

const common: esbuild.BuildOptions = {
  bundle: true,
  minify: true,
  sourcemap: true,
  logLevel: 'warning',
  legalComments: 'none',
  alias: { 'jsonc-parser': JSONC_ESM },
};

async function buildClient(): Promise<void> {
  await esbuild.build({
    ...common,
    entryPoints: [path.join(root, 'client', 'extension.ts')],
    outfile: path.join(dist, 'client', 'extension.js'),
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    // The extension reports how long its code took to load (client/extension.ts).
    banner: { js: 'var __grimoireLoadStart = require("node:perf_hooks").performance.now();' },
  });
}

async function buildServer(): Promise<void> {
  // server/config/paths.ts finds the package root three folders above its own file: the bundle
  // keeps that depth (dist/server/process/) so the demo spells under server/demo/ are found.
  if (path.resolve(serverDir, '..', '..', '..') !== root)
    throw new Error('the server bundle must sit three folders below the package root');
  await esbuild.build({
    ...common,
    entryPoints: {
      main: path.join(root, 'server', 'extension-main.ts'),
      'child-supervisor-node': path.join(root, 'server', 'upstream', 'children', 'child-supervisor-node.ts'),
      // Loaded as a worker from beside the tokenizer module, which the bundle puts here.
      'token-worker': path.join(root, 'server', 'intel', 'tokens', 'token-worker.ts'),
    },
    outdir: serverDir,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: LAZY_NATIVE,
  });
  fs.copyFileSync(
    path.join(root, 'node_modules', 'sql.js', 'dist', 'sql-wasm.wasm'),
    path.join(serverDir, 'sql-wasm.wasm'),
  );
  writeRanks();
}

/** The tokenizer's ranks once, for both entry points (server/intel/tokens/tokenizer-core.ts reads them at run time). */
function writeRanks(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the ranks are a CommonJS data module, read once here
  const ranks = require(RANKS_MODULE) as { bpe_ranks: string };
  fs.writeFileSync(path.join(serverDir, RANKS_FILE), JSON.stringify(ranks));
  for (const entry of ['main.js', 'token-worker.js']) {
    if (fs.readFileSync(path.join(serverDir, entry), 'utf8').includes(ranks.bpe_ranks.slice(0, 200)))
      throw new Error(`${entry} carries the tokenizer's ranks: they belong in ${RANKS_FILE} only`);
  }
}

/** The dashboard for the browser; `outdir` defaults to dist/webview (the browser test builds its own). */
export async function buildWebview(outdir = path.join(dist, 'webview')): Promise<void> {
  await esbuild.build({
    ...common,
    entryPoints: { dashboard: path.join(root, 'webview', 'main.mts') },
    outdir,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  });
  await esbuild.build({
    ...common,
    entryPoints: { dashboard: path.join(root, 'webview', 'dashboard.css') },
    outdir,
  });
}

/** Each demo server as one ESM file at the path its spell names under ${GRIMOIRE_DEMO_MODULES}. */
async function buildDemoServers(): Promise<void> {
  const out = path.join(dist, 'demo-servers');
  fs.writeFileSync(path.join(out, 'package.json'), JSON.stringify({ type: 'module', private: true }) + '\n');
  for (const name of DEMO_SERVERS) {
    const source = path.join(root, 'node_modules', '@modelcontextprotocol', name);
    const target = path.join(out, '@modelcontextprotocol', name);
    await esbuild.build({
      ...common,
      sourcemap: false,
      entryPoints: [path.join(source, 'dist', 'index.js')],
      outfile: path.join(target, 'dist', 'index.js'),
      platform: 'node',
      format: 'esm',
      target: 'node20',
      banner: {
        js: "import { createRequire as __grimoireRequire } from 'node:module'; const require = __grimoireRequire(import.meta.url);",
      },
    });
    // server-everything reads its instructions from <package>/docs next to dist/ (and serves each file there
    // as a resource): only the instructions are shipped, the package's own documentation is not.
    const instructions = path.join(source, 'dist', 'docs', 'instructions.md');
    if (fs.existsSync(instructions)) {
      fs.mkdirSync(path.join(target, 'docs'), { recursive: true });
      fs.copyFileSync(instructions, path.join(target, 'docs', 'instructions.md'));
    }
  }
}

/** The YAML extension validates with JSON Schema draft 7, so the editor's copy targets it. */
export function editorSpellSchema(): Record<string, unknown> {
  return z.toJSONSchema(spellSchema, { target: 'draft-7', io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
}

function writeSchema(): void {
  fs.writeFileSync(path.join(dist, 'spell.schema.json'), JSON.stringify(editorSpellSchema(), null, 2) + '\n');
}

function sizeOf(dir: string): number {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .reduce(
      (sum, entry) => (entry.isFile() ? sum + fs.statSync(path.join(entry.parentPath, entry.name)).size : sum),
      0,
    );
}

export async function bundle(): Promise<void> {
  const started = Date.now();
  fs.rmSync(dist, { recursive: true, force: true });
  fs.mkdirSync(path.join(dist, 'demo-servers'), { recursive: true });
  await Promise.all([buildClient(), buildServer(), buildWebview(), buildDemoServers()]);
  writeSchema();
  const target = process.env[TARGET_VARIABLE];
  let semantic = '';
  if (target) {
    if (!isRuntimeTarget(target))
      throw new Error(
        `${TARGET_VARIABLE}=${target}: the semantic runtime exists for ${Object.keys(RUNTIME_TARGETS).join(', ')}`,
      );
    const runtimeBytes = await writeSemanticRuntime(
      path.join(root, 'node_modules'),
      path.join(root, BUNDLED_RUNTIME_DIR),
      target,
    );
    semantic = `, semantic runtime for ${target} ${(runtimeBytes / 1024 / 1024).toFixed(1)} MB`;
  }
  const kb = (dir: string) => `${Math.round(sizeOf(path.join(dist, dir)) / 1024)} KB`;
  console.log(
    `bundled in ${Date.now() - started} ms: client ${kb('client')}, server ${kb('server')}, ` +
      `webview ${kb('webview')}, demo servers ${kb('demo-servers')} (with source maps)${semantic}`,
  );
}

if (require.main === module) {
  bundle().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
