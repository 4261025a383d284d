import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { defaultSettings, withOverrides } from '../../server/config/settings.js';
import { setLogSink } from '../../server/log.js';
import { createResolver } from '../../server/resolve/create-resolver.js';
import { replaceTransformersImport, TRANSFORMERS_PACKAGE } from '../../server/resolve/semantic/transformers-module.js';
import type { PowerDocument } from '../../server/resolve/types.js';
import { Store } from '../../server/store/store.js';
import { tinyModelPath } from '../fixtures/models/tiny-model.js';
import { tempDir } from '../helpers/temp.js';

const powers: PowerDocument[] = [
  {
    name: 'garage',
    description: 'Car listings and vehicle history.',
    keywords: ['car', 'vehicle', 'truck'],
    tools: [{ name: 'find_car', description: 'Search car listings' }],
  },
  {
    name: 'skies',
    description: 'Weather forecast and temperature.',
    keywords: ['weather', 'forecast', 'rain'],
    tools: [{ name: 'forecast', description: 'Rain and snow forecast' }],
  },
];

/**
 * The package's own import, made from a folder with no node_modules above it: Node's real
 * resolution failure, as in an install without the optional dependency.
 */
function importFromNowhere(dir: string): () => Promise<unknown> {
  const file = path.join(dir, 'import-transformers.mjs');
  fs.writeFileSync(file, `export default () => import(${JSON.stringify(TRANSFORMERS_PACKAGE)});\n`);
  return async () => ((await import(pathToFileURL(file).href)) as { default: () => Promise<unknown> }).default();
}

test(
  'without @huggingface/transformers: the resolver ranks lexically, its status and the log say once, ' +
    'at info, that the package is not part of this install',
  async () => {
    const { dir, cleanup } = tempDir();
    const lines: string[] = [];
    setLogSink((line) => lines.push(line));
    const restore = replaceTransformersImport(importFromNowhere(dir));
    const store = await Store.open({ dataDir: path.join(dir, 'data'), fsync: false });
    try {
      const settings = withOverrides(defaultSettings(), {
        resolve: { semantic: { model: tinyModelPath, allowRemoteModels: false } },
      });
      for (const round of [1, 2]) {
        const { resolver, embedder } = createResolver(settings.resolve, store, dir);
        assert.equal(await embedder.ready(), false, `round ${round}: no model without the package`);
        assert.equal(embedder.status().state, 'unavailable');
        resolver.index(powers);
        await resolver.ready();
        assert.equal(resolver.status().mode, 'lexical-only');
        assert.match(
          embedder.status().detail ?? '',
          new RegExp(
            /transformers\.js \(@huggingface\/transformers, with its ONNX runtime\) is not part of this /.source +
              /install of Grimoire \(/.source +
              /(the \S+ build of Grimoire carries it|no build of Grimoire carries an ONNX runtime for \S+)/.source +
              /[^)]*\): the resolver runs lexical-only/.source,
          ),
        );
        assert.doesNotMatch(
          embedder.status().detail ?? '',
          /npm/,
          'no one is asked to run npm in the extension folder',
        );
        const ranked = await resolver.rank('rain forecast for tomorrow');
        assert.equal(ranked[0].name, 'skies', 'lexical ranking still works');
        assert.equal(ranked[0].semantic, undefined);
      }
      const told = lines.filter((line) => line.includes(TRANSFORMERS_PACKAGE));
      assert.equal(told.length, 1, `said once for two resolvers: ${JSON.stringify(lines)}`);
      assert.match(told[0]!, /\binfo\b/, 'quietly: at info, not as a warning');
      assert.ok(!lines.some((line) => /\b(warn|error)\b/.test(line) && line.includes('[semantic]')), 'no warning');
    } finally {
      restore();
      setLogSink((line) => process.stderr.write(line + '\n'));
      await store.close();
      cleanup();
    }
  },
);

test('another failure of the import is not taken for a missing package', async () => {
  const restore = replaceTransformersImport(() =>
    Promise.reject(Object.assign(new Error('onnxruntime binding failed'), { code: 'ERR_DLOPEN_FAILED' })),
  );
  const { dir, cleanup } = tempDir();
  const store = await Store.open({ dataDir: dir, fsync: false });
  try {
    const settings = withOverrides(defaultSettings(), {
      resolve: { semantic: { model: tinyModelPath, allowRemoteModels: false } },
    });
    const { embedder } = createResolver(settings.resolve, store, dir);
    assert.equal(await embedder.ready(), false);
    assert.match(embedder.status().detail ?? '', /onnxruntime binding failed/);
    assert.doesNotMatch(embedder.status().detail ?? '', /npm install/);
  } finally {
    restore();
    await store.close();
    cleanup();
  }
});
