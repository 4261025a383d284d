/**
 * A platform build's semantic runtime (tools/packaging/semantic-runtime.ts) runs on its own: written
 * for this machine's target into a folder outside the repository (no node_modules above it), it
 * embeds with the tiny fixture model in a separate Node, and gives the vectors the installed
 * package gives. It carries this platform's binary only, no onnxruntime-web and no sharp.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeSemanticRuntime } from '../../tools/packaging/semantic-runtime.js';
import {
  BUNDLED_RUNTIME_ENTRY,
  currentTarget,
  isRuntimeTarget,
  RUNTIME_TARGETS,
} from '../../server/resolve/semantic/runtime-builds.js';
import { tinyModelPath } from '../fixtures/models/tiny-model.js';
import { repoRoot, tempDir } from '../helpers/temp.js';

const modules = path.join(repoRoot, 'node_modules');

/** A script that embeds two sentences with the module at `entry` (a file URL), printing the vectors. */
function embedScript(entry: string): string {
  return (
    `const t = await import(${JSON.stringify(entry)});
t.env.allowRemoteModels = false;
const extractor = await t.pipeline('feature-extraction', ${JSON.stringify(tinyModelPath)}, { dtype: ` +
    `'fp32', device: 'cpu', local_files_only: true });
const output = await extractor(['read a file from disk', 'remember a note'], { pooling: 'mean', normalize: true });
console.log(JSON.stringify({ dims: output.dims, data: Array.from(output.data) }));
`
  );
}

function embedWith(dir: string, entry: string): { dims: number[]; data: number[] } {
  const script = path.join(dir, `embed-${Math.random().toString(36).slice(2)}.mjs`);
  fs.writeFileSync(script, embedScript(entry));
  return JSON.parse(execFileSync(process.execPath, [script], { cwd: dir, encoding: 'utf8', timeout: 60_000 })) as {
    dims: number[];
    data: number[];
  };
}

test("this platform's runtime, alone in a folder, embeds as the installed package does; it carries nothing it does not load", async (t) => {
  const target = currentTarget();
  if (!isRuntimeTarget(target)) return t.skip(`no platform build for ${target}`);
  if (!fs.existsSync(path.join(modules, '@huggingface', 'transformers')))
    return t.skip('@huggingface/transformers is not installed (npm ci --omit=optional)');
  const { dir, cleanup } = tempDir('grimoire-runtime-');
  try {
    const out = path.join(dir, 'extension', 'dist', 'semantic');
    const bytes = await writeSemanticRuntime(modules, out, target);
    const files = fs
      .readdirSync(out, { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(out, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
    assert.ok(files.includes(BUNDLED_RUNTIME_ENTRY));
    assert.ok(
      files.includes(`node_modules/onnxruntime-node/bin/napi-v6/${RUNTIME_TARGETS[target]}/onnxruntime_binding.node`),
    );
    const platforms = new Set(
      files.filter((file) => file.includes('/bin/napi-v6/')).map((file) => file.split('/').slice(4, 6).join('/')),
    );
    assert.deepEqual([...platforms], [RUNTIME_TARGETS[target]], 'one platform only');
    assert.deepEqual(
      files.filter((file) => /onnxruntime-web|sharp|@img|\.map$/.test(file)),
      [],
      'no onnxruntime-web, sharp, libvips or source maps',
    );
    assert.ok(files.includes('THIRD-PARTY-NOTICES.md'));
    console.log(`semantic runtime for ${target}: ${(bytes / 1024 / 1024).toFixed(1)} MB in ${files.length} files`);

    const carried = embedWith(dir, pathToFileURL(path.join(out, BUNDLED_RUNTIME_ENTRY)).href);
    const installed = embedWith(
      dir,
      pathToFileURL(path.join(modules, '@huggingface', 'transformers', 'dist', 'transformers.node.mjs')).href,
    );
    assert.equal(carried.dims[0], 2);
    assert.deepEqual(carried, installed, 'the same vectors as the installed package');
  } finally {
    cleanup();
  }
});
