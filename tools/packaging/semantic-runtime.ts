/**
 * The semantic runtime of a platform build (`npm run package -- --target linux-x64`), in dist/semantic/:
 *   transformers.mjs                       transformers.js' Node build with its tokenizer and template
 *                                          packages, one file; onnxruntime-node and -common stay packages
 *   node_modules/onnxruntime-node/         its JavaScript and bin/napi-v6/<platform>/<arch>/ only
 *   node_modules/onnxruntime-common/       what both of them import
 *   THIRD-PARTY-NOTICES.md                 the licences of what is carried
 * Left out: onnxruntime-web (the Node build carries the part it uses inside), the other platforms'
 * binaries, and sharp with libvips (images only; feature extraction never reads one): sharp is
 * replaced by a function that says so.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import {
  BUNDLED_RUNTIME_ENTRY,
  RUNTIME_TARGETS,
  type RuntimeTarget,
} from '../../server/resolve/semantic/runtime-builds.js';

const SHARP_STUB =
  "export default function sharp() { throw new Error('Grimoire carries no image library: " +
  "images cannot be read by its semantic runtime'); }\n";

interface Carried {
  name: string;
  version: string;
  license: string;
}

function manifestOf(modules: string, name: string): Carried & { dependencies?: Record<string, string> } {
  return JSON.parse(fs.readFileSync(path.join(modules, name, 'package.json'), 'utf8')) as Carried;
}

function copy(from: string, to: string): void {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.cpSync(from, to, { recursive: true });
}

/** Writes the runtime for one target into `out` (dist/semantic) from the installed `modules` (node_modules); returns its size in bytes. */
export async function writeSemanticRuntime(modules: string, out: string, target: RuntimeTarget): Promise<number> {
  fs.rmSync(out, { recursive: true, force: true });
  const binaries = path.join(modules, 'onnxruntime-node', 'bin', 'napi-v6', RUNTIME_TARGETS[target]);
  if (!fs.existsSync(path.join(binaries, 'onnxruntime_binding.node')))
    throw new Error(`onnxruntime-node has no binary for ${target} in ${binaries}`);

  const stub = path.join(out, 'sharp-stub.mjs');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(stub, SHARP_STUB);
  await esbuild.build({
    entryPoints: [path.join(modules, '@huggingface', 'transformers', 'dist', 'transformers.node.mjs')],
    outfile: path.join(out, BUNDLED_RUNTIME_ENTRY),
    bundle: true,
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['onnxruntime-node', 'onnxruntime-common'],
    alias: { sharp: stub },
  });
  fs.rmSync(stub);

  const ortNode = path.join(out, 'node_modules', 'onnxruntime-node');
  for (const part of ['package.json', 'dist'])
    copy(path.join(modules, 'onnxruntime-node', part), path.join(ortNode, part));
  for (const map of fs.readdirSync(path.join(ortNode, 'dist')))
    if (!map.endsWith('.js') && map !== 'package.json') fs.rmSync(path.join(ortNode, 'dist', map));
  copy(binaries, path.join(ortNode, 'bin', 'napi-v6', RUNTIME_TARGETS[target]));
  const ortCommon = path.join(out, 'node_modules', 'onnxruntime-common');
  copy(path.join(modules, 'onnxruntime-common', 'package.json'), path.join(ortCommon, 'package.json'));
  for (const build of ['cjs', 'esm']) {
    fs.cpSync(path.join(modules, 'onnxruntime-common', 'dist', build), path.join(ortCommon, 'dist', build), {
      recursive: true,
      filter: (file) => !file.endsWith('.map') && !file.endsWith('.d.ts'),
    });
  }
  writeNotices(modules, out);
  return fs
    .readdirSync(out, { withFileTypes: true, recursive: true })
    .reduce(
      (sum, entry) => (entry.isFile() ? sum + fs.statSync(path.join(entry.parentPath, entry.name)).size : sum),
      0,
    );
}

/** Name, version and licence of each package whose code is carried (transformers.js' own dependencies are bundled into its file). */
function writeNotices(modules: string, out: string): void {
  const transformers = manifestOf(modules, '@huggingface/transformers');
  const bundled = Object.keys(transformers.dependencies ?? {}).filter((name) => name.startsWith('@huggingface/'));
  const carried = ['@huggingface/transformers', ...bundled, 'onnxruntime-node', 'onnxruntime-common'].map((name) =>
    manifestOf(modules, name),
  );
  const lines = carried.map(({ name, version, license }) => `- ${name} ${version}: ${license}`);
  const apache = fs.readFileSync(path.join(modules, '@huggingface', 'transformers', 'LICENSE'), 'utf8');
  fs.writeFileSync(
    path.join(out, 'THIRD-PARTY-NOTICES.md'),
    `# Third-party software in Grimoire's semantic runtime\n\n${lines.join('\n')}\n\nonnxruntime-web's ` +
      `Node part is inside @huggingface/transformers' file (MIT, ` +
      `Microsoft).\n\n## Apache License 2.0 (@huggingface/transformers)\n\n${apache}`,
  );
}
