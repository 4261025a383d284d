/**
 * What the .vsix carries, decided by .vscodeignore through vsce's own file listing (the one
 * `npm run package` packs): what runs, the license, the changelog; no source maps, no sources, and
 * of server-everything's documentation only the instructions the server reads.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { listFiles, PackageManager } from '@vscode/vsce';
import { tempDir } from '../helpers/temp.js';

const root = path.resolve(__dirname, '..', '..', '..');
const EVERYTHING_DOCS = [
  'architecture.md',
  'extension.md',
  'features.md',
  'how-it-works.md',
  'instructions.md',
  'startup.md',
  'structure.md',
];

test(
  "the .vsix file list: what runs (a platform build's semantic runtime included), " +
    'LICENSE and CHANGELOG, only the instructions of server-everything',
  async () => {
    const tree = tempDir();
    try {
      const files = [
        'package.json',
        'LICENSE',
        'CHANGELOG.md',
        'README.md',
        'dist/client/extension.js',
        'dist/client/extension.js.map',
        'dist/server/process/main.js',
        'dist/spell.schema.json',
        'dist/semantic/THIRD-PARTY-NOTICES.md',
        'dist/semantic/node_modules/onnxruntime-node/bin/napi-v6/linux/x64/libonnxruntime.so.1',
        'dist/semantic/node_modules/onnxruntime-node/bin/napi-v6/linux/x64/onnxruntime_binding.node',
        'dist/semantic/node_modules/onnxruntime-node/package.json',
        'dist/semantic/transformers.mjs',
        ...EVERYTHING_DOCS.map((name) => `dist/demo-servers/@modelcontextprotocol/server-everything/docs/${name}`),
        'dist/demo-servers/@modelcontextprotocol/server-everything/dist/index.js',
        'client/extension.ts',
        'server/gateway/gateway.ts',
        'server/demo/powers/memory.spell.yaml',
        'docs/performance.md',
        'test/unit/x.test.ts',
        'out/client/extension.js',
      ];
      fs.copyFileSync(path.join(root, 'package.json'), path.join(tree.dir, 'package.json'));
      fs.copyFileSync(path.join(root, '.vscodeignore'), path.join(tree.dir, '.vscodeignore'));
      for (const file of files.slice(1)) {
        fs.mkdirSync(path.dirname(path.join(tree.dir, file)), { recursive: true });
        fs.writeFileSync(path.join(tree.dir, file), 'x');
      }
      const listed = (await listFiles({ cwd: tree.dir, packageManager: PackageManager.None }))
        .map((file) => file.split(path.sep).join('/'))
        .sort();
      // vsce always lists README.md; the pack puts docs/marketplace.md in its place (the extension suite's listing test reads it).
      assert.deepEqual(listed, [
        'CHANGELOG.md',
        'LICENSE',
        'README.md',
        'dist/client/extension.js',
        'dist/demo-servers/@modelcontextprotocol/server-everything/dist/index.js',
        'dist/demo-servers/@modelcontextprotocol/server-everything/docs/instructions.md',
        'dist/semantic/THIRD-PARTY-NOTICES.md',
        'dist/semantic/node_modules/onnxruntime-node/bin/napi-v6/linux/x64/libonnxruntime.so.1',
        'dist/semantic/node_modules/onnxruntime-node/bin/napi-v6/linux/x64/onnxruntime_binding.node',
        'dist/semantic/node_modules/onnxruntime-node/package.json',
        'dist/semantic/transformers.mjs',
        'dist/server/process/main.js',
        'dist/spell.schema.json',
        'package.json',
        'server/demo/powers/memory.spell.yaml',
      ]);
    } finally {
      tree.cleanup();
    }
  },
);

test('the repository has the MIT license package.json names', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { license: string };
  assert.equal(manifest.license, 'MIT');
  assert.match(
    fs.readFileSync(path.join(root, 'LICENSE'), 'utf8'),
    /^MIT License\n[\s\S]*Permission is hereby granted, free of charge/,
  );
});

test('the changelog is for users: no benchmark figures or commands', () => {
  const changelog = fs.readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8');
  assert.doesNotMatch(changelog, /npm run bench|BENCH_|calls\/s|\bµs\b|\bms a call\b/);
});
