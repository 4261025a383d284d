/** Where *Download Semantic Model* takes the model from, and the "lexical only" status item that leads to it. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { folderParams, MODEL_SOURCES, mirrorParams, mirrorProblem } from '../../client/model-source.js';
import { matchingItemModel } from '../../client/status-model.js';
import type { GatewayStatus } from '../../protocol/records.js';

test('the three sources, a mirror address checked as typed, a folder taken as it is', () => {
  assert.deepEqual(
    MODEL_SOURCES.map((s) => s.source),
    ['huggingface', 'mirror', 'folder'],
  );
  assert.equal(mirrorProblem('https://hf-mirror.example.com'), undefined);
  assert.equal(mirrorProblem('http://127.0.0.1:8080/models/'), undefined);
  assert.match(mirrorProblem('hf-mirror.example.com') ?? '', /Type the mirror's address/);
  assert.match(mirrorProblem('ftp://mirror.example.com/') ?? '', /not ftp:/);
  assert.match(mirrorProblem('https://me:secret@mirror.example.com/') ?? '', /credentials/);
  assert.deepEqual(mirrorParams(' https://hf-mirror.example.com '), { remoteHost: 'https://hf-mirror.example.com/' });
  assert.deepEqual(mirrorParams('http://127.0.0.1:8080/models'), { remoteHost: 'http://127.0.0.1:8080/models/' });
  assert.deepEqual(folderParams('/home/me/models/all-MiniLM-L6-v2'), {
    fromFolder: '/home/me/models/all-MiniLM-L6-v2',
  });
  assert.throws(() => folderParams('models/x'), /not an absolute folder/);
});

test('"lexical only" shows while the model is unavailable, and its click downloads it', () => {
  const base: GatewayStatus = {
    health: 'ready',
    endpointVersion: 1,
    powers: 3,
    activePowers: 0,
    crashedPowers: 0,
    issues: 0,
  };
  const unavailable = matchingItemModel({
    ...base,
    matching: {
      mode: 'lexical-only',
      detail: 'lexical BM25F only: semantic matching unavailable',
      semantic: 'unavailable',
    },
  });
  assert.equal(unavailable?.text, '$(whole-word) lexical only');
  assert.equal(unavailable?.command, 'grimoire.downloadSemanticModel');
  assert.match(
    unavailable?.tooltip ?? '',
    new RegExp(
      /^Grimoire matches requests by their words only: lexical BM25F only: semantic matching /.source +
        /unavailable\.\nClick to download the semantic model/.source,
    ),
  );
  for (const semantic of ['ready', 'loading', 'off'] as const)
    assert.equal(
      matchingItemModel({ ...base, matching: { mode: 'lexical-only', detail: 'x', semantic } }),
      undefined,
      semantic,
    );
  assert.equal(matchingItemModel(base), undefined, 'nothing known yet');
  assert.equal(
    matchingItemModel({
      ...base,
      health: 'restarting',
      matching: { mode: 'lexical-only', detail: 'x', semantic: 'unavailable' },
    }),
    undefined,
  );
});
