/**
 * "Grimoire: Download Semantic Model" on the gateway's side: transformers.js' real loading code
 * fetches a model id into the data folder. The network is guarded (every request fails and is
 * recorded), so the download fails here as it does offline; the fixture model folder still loads.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { downloadModel } from '../../server/resolve/semantic/model-download.js';
import { fetchSemanticModel } from '../../server/rpc/model-requests.js';
import { modelCacheDir } from '../../server/resolve/create-resolver.js';
import type { DownloadProgress } from '../../protocol/extension-methods.js';
import { replaceTransformersImport } from '../../server/resolve/semantic/transformers-module.js';
import { runtimeAdvice } from '../../server/resolve/semantic/runtime-builds.js';
import { guardNetwork, tinyModelPath } from '../fixtures/models/tiny-model.js';
import { tempDir } from '../helpers/temp.js';

test('offline, a model id fails with what was tried and what to do, and nothing half-written is taken for the model', async () => {
  const requested = await guardNetwork();
  const { dir, cleanup } = tempDir();
  try {
    const cacheDir = path.join(dir, 'models');
    const outcome = await downloadModel({ model: 'Xenova/all-MiniLM-L6-v2', cacheDir });
    assert.equal(outcome.ok, false);
    assert.ok(
      requested.some((url) => url.startsWith('https://huggingface.co/Xenova/all-MiniLM-L6-v2/')),
      `transformers.js asked for the model's files: ${requested.join(', ')}`,
    );
    assert.match(
      !outcome.ok ? outcome.message : '',
      new RegExp(
        /^The model Xenova\/all-MiniLM-L6-v2 could not be downloaded from https:\/\/huggingface\.co\/ /.source +
          /\(.+\)\. Check the network connection or proxy and run the command again, or put its files /.source +
          /\(config\.json, tokenizer\.json, tokenizer_config\.json and onnx\/model\.onnx\) in /.source +
          /.+models\/Xenova\/all-MiniLM-L6-v2 by hand\.$/.source,
      ),
    );
    assert.ok(
      !fs.existsSync(path.join(cacheDir, 'Xenova', 'all-MiniLM-L6-v2', 'onnx', 'model.onnx')),
      'no model file written',
    );

    const mirror = await downloadModel({
      model: 'Xenova/all-MiniLM-L6-v2',
      cacheDir,
      remoteHost: 'http://127.0.0.1:9/',
    });
    assert.match(!mirror.ok ? mirror.message : '', /from http:\/\/127\.0\.0\.1:9\//);
    assert.ok(
      requested.some((url) => url.startsWith('http://127.0.0.1:9/Xenova/')),
      'a mirror is asked instead',
    );
  } finally {
    cleanup();
  }
});

test('the fixture model folder loads, with progress per file', async () => {
  await guardNetwork();
  const { dir, cleanup } = tempDir();
  try {
    const seen: DownloadProgress[] = [];
    const outcome = await downloadModel({ model: tinyModelPath, cacheDir: path.join(dir, 'models') }, (p) =>
      seen.push(p),
    );
    assert.deepEqual(outcome.ok && { folder: outcome.folder, model: outcome.model }, {
      folder: tinyModelPath,
      model: tinyModelPath,
    });
    assert.ok(outcome.ok && outcome.files.some((file) => file.endsWith('model.onnx')), JSON.stringify(outcome));
    assert.ok(
      seen.some((p) => p.percent === 100),
      JSON.stringify(seen),
    );
  } finally {
    cleanup();
  }
});

test('without transformers.js the failure says so, without asking anyone to run npm', async () => {
  const restore = replaceTransformersImport(() =>
    Promise.reject(
      Object.assign(new Error("Cannot find package '@huggingface/transformers'"), { code: 'ERR_MODULE_NOT_FOUND' }),
    ),
  );
  const { dir, cleanup } = tempDir();
  try {
    const outcome = await downloadModel({ model: tinyModelPath, cacheDir: path.join(dir, 'models') });
    assert.equal(outcome.ok, false);
    const message = !outcome.ok ? outcome.message : '';
    assert.match(
      message,
      /^Semantic matching cannot run here: transformers\.js .* is not part of this install of Grimoire, so the model was not downloaded\./,
    );
    // Which build carries it, for this machine's platform (linux-x64 here: a platform build exists).
    assert.ok(
      message.includes(`so the model was not downloaded. ${runtimeAdvice().replace(/^./, (c) => c.toUpperCase())}.`),
      message,
    );
    assert.doesNotMatch(message, /npm/);
  } finally {
    restore();
    cleanup();
  }
});

test(
  'a model folder given from the UI is loaded to check it, ' +
    'then copied to where the gateway looks for the configured model',
  async () => {
    await guardNetwork();
    const { dir, cleanup } = tempDir();
    try {
      const data = path.join(dir, 'data');
      const runtime = {
        settings: { resolve: { semantic: { model: 'grimoire-test/tiny-embedder' } } },
        paths: { data },
      } as unknown as Parameters<typeof fetchSemanticModel>[0];
      const outcome = await fetchSemanticModel(runtime, { fromFolder: tinyModelPath }, () => undefined);
      const target = path.join(modelCacheDir(data), 'grimoire-test', 'tiny-embedder');
      assert.deepEqual(outcome.ok && [outcome.model, outcome.folder], ['grimoire-test/tiny-embedder', target]);
      // The gateway's next start finds it by id, offline (no remote models).
      const reloaded = await downloadModel({ model: 'grimoire-test/tiny-embedder', cacheDir: modelCacheDir(data) });
      assert.equal(reloaded.ok, true, JSON.stringify(reloaded));

      const empty = path.join(dir, 'empty');
      fs.mkdirSync(empty);
      const refused = await fetchSemanticModel(runtime, { fromFolder: empty }, () => undefined);
      assert.match(
        !refused.ok ? refused.message : '',
        /^The model folder .*empty could not be loaded .*: it needs config\.json, tokenizer\.json/,
      );
      assert.match(
        (
          (await fetchSemanticModel(runtime, { fromFolder: 'relative/models' }, () => undefined)) as {
            message?: string;
          }
        ).message ?? '',
        /must be an absolute path/,
      );
    } finally {
      cleanup();
    }
  },
);
