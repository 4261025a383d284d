import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { setLogSink } from '../../server/log.js';
import { Embedder, type EmbedderOptions } from '../../server/resolve/semantic/embedder.js';
import { cosine } from '../../server/text/vector.js';
import { copyTinyModel, guardNetwork, tinyModelOptions, tinyModelPath } from '../fixtures/models/tiny-model.js';
import { tempDir } from '../helpers/temp.js';

const temp = tempDir('grimoire-semantic-');
const logLines: string[] = [];
let requested: string[] = [];

before(async () => {
  requested = await guardNetwork();
  setLogSink((line) => logLines.push(line));
});
after(() => {
  setLogSink((line) => process.stderr.write(line + '\n'));
  temp.cleanup();
});

const options = (overrides: Partial<EmbedderOptions> = {}): EmbedderOptions => tinyModelOptions(temp.dir, overrides);

const semanticWarnings = (): string[] =>
  logLines.filter((line) => line.includes('warn') && line.includes('[semantic]'));
const unavailableNotices = (): string[] =>
  logLines.filter(
    (line) => line.includes('[semantic]') && line.includes('semantic matching unavailable: lexical only'),
  );

test('a local model folder loads offline and gives normalised, meaningful sentence vectors', async (t) => {
  const embedder = new Embedder(options());
  assert.equal(embedder.status().state, 'idle');
  assert.equal(await embedder.embed(['car']), undefined, 'not ready yet');
  assert.equal(embedder.status().state, 'loading', 'embed started the load');
  const started = Date.now();
  assert.equal(await embedder.ready(), true);
  t.diagnostic(`tiny model ready ${Date.now() - started} ms after the first embed`);
  assert.deepEqual(embedder.status(), { state: 'ready', model: tinyModelPath });

  const [car, automobile, weather, forecastSentence, rainSentence, driveSentence] = (await embedder.embed([
    'car',
    'automobile',
    'weather',
    'Check the weather forecast',
    'will it rain, what temperature',
    'drive my car',
  ]))!;
  for (const vector of [car!, automobile!, weather!, forecastSentence!]) {
    assert.equal(vector.length, 16);
    assert.ok(Math.abs(Math.hypot(...vector) - 1) < 1e-5, 'unit length');
  }
  assert.ok(cosine(automobile!, car!) > 0.9, `automobile~car ${cosine(automobile!, car!)}`);
  assert.ok(cosine(automobile!, car!) > cosine(automobile!, weather!) + 0.5);
  assert.ok(
    cosine(forecastSentence!, rainSentence!) > cosine(forecastSentence!, driveSentence!) + 0.3,
    'sentences: pooled over words',
  );
});

test('vectors do not depend on batching or padding', async () => {
  const embedder = new Embedder(options());
  assert.ok(await embedder.ready());
  const texts = Array.from({ length: 70 }, (_, i) =>
    i % 7 === 0 ? `read the document number ${i} in the folder` : `car ${i}`,
  );
  const all = (await embedder.embed(texts))!;
  assert.equal(all.length, texts.length, 'one vector per text across several batches');
  for (const i of [0, 1, 35, 69]) {
    const [alone] = (await embedder.embed([texts[i]!]))!;
    assert.ok(cosine(alone!, all[i]!) > 0.99999, `text ${i} alone vs in a padded batch`);
  }
  assert.deepEqual(await embedder.embed([]), []);
});

test('a model id that is not cached, with remote models disabled, is unavailable: lexical-only, said once without a warning', async () => {
  const warningsBefore = semanticWarnings().length;
  const noticesBefore = unavailableNotices().length;
  const embedder = new Embedder(options({ model: 'Xenova/all-MiniLM-L6-v2' }));
  assert.equal(await embedder.embed(['car']), undefined);
  assert.equal(await embedder.ready(), false);
  const status = embedder.status();
  assert.equal(status.state, 'unavailable');
  assert.equal(status.model, 'Xenova/all-MiniLM-L6-v2');
  assert.match(
    status.detail!,
    /Xenova\/all-MiniLM-L6-v2 is not cached .* remote models are disabled: the resolver runs lexical-only/,
  );
  assert.equal(await embedder.embed(['car']), undefined);
  embedder.warmUp();
  assert.equal(await embedder.ready(), false, 'no second attempt');
  assert.equal(semanticWarnings().length - warningsBefore, 0, semanticWarnings().join('\n'));
  assert.equal(unavailableNotices().length - noticesBefore, 1, 'one short line, the reason at debug level');
});

test('semantic matching turned off in settings: off, lexical-only, nothing loads', async () => {
  const embedder = new Embedder(options({ enabled: false }));
  assert.equal(embedder.status().state, 'off');
  assert.match(embedder.status().detail!, /turned off in settings: lexical-only/);
  assert.equal(await embedder.embed(['car']), undefined);
  embedder.warmUp();
  assert.equal(await embedder.ready(), false);
  assert.equal(embedder.status().state, 'off');
});

test('a corrupt onnx file or an incomplete folder is unavailable, and nothing throws', async () => {
  const corrupt = copyTinyModel(path.join(temp.dir, 'corrupt'), Buffer.from('this is not an onnx protobuf'));
  const missing = path.join(temp.dir, 'no-such-model');
  const cases = [
    {
      model: corrupt,
      detail: `model folder ${corrupt} could not be loaded (Load model from ${path.join(corrupt, 'onnx', 'model.onnx')} failed:`,
    },
    {
      model: missing,
      detail: `model folder ${missing} has no config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx`,
    },
  ];
  for (const { model, detail } of cases) {
    const embedder = new Embedder(options({ model }));
    embedder.warmUp();
    assert.equal(await embedder.ready(), false, model);
    const status = embedder.status();
    assert.equal(status.state, 'unavailable');
    assert.ok(status.detail!.startsWith(detail), status.detail);
    assert.match(status.detail!, /: the resolver runs lexical-only$/);
    assert.equal(await embedder.embed(['car']), undefined);
  }
});

test('a good model still loads after failed ones (the shared transformers env is reset per load)', async () => {
  const failing = new Embedder(options({ model: 'Xenova/all-MiniLM-L6-v2' }));
  const good = new Embedder(options());
  failing.warmUp();
  good.warmUp();
  assert.deepEqual(await Promise.all([failing.ready(), good.ready()]), [false, true]);
  assert.equal((await good.embed(['rain']))![0]!.length, 16);
});

test('modelKey names the model and dtype, and a different model folder gets a different key', () => {
  const key = new Embedder(options()).modelKey;
  assert.ok(key.startsWith(tinyModelPath) && key.endsWith('#fp32'), key);
  assert.equal(new Embedder(options()).modelKey, key, 'stable');
  const copy = copyTinyModel(path.join(temp.dir, 'copy'));
  assert.notEqual(new Embedder(options({ model: copy })).modelKey, key);
  assert.equal(new Embedder(options({ model: 'Xenova/all-MiniLM-L6-v2' })).modelKey, 'Xenova/all-MiniLM-L6-v2#fp32');
});

test('no test asked the network for anything', () => {
  assert.deepEqual(requested, []);
});
