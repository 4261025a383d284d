/**
 * Powers indexed while the embedding model was still loading get their vectors once it is ready,
 * with no other reindex to trigger it (no discovery, no activation, no learning): the resolver turns
 * hybrid by itself. Before the fix a full test run under load could leave it lexical-only.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { createRuntime } from '../../server/runtime.js';
import { gatewayEnv, waitFor } from '../helpers/gateway-process.js';
import { repoRoot, tempDir, unstableSpell, writeSpell } from '../helpers/temp.js';

const tinyModel = path.join(repoRoot, 'test', 'fixtures', 'models', 'tiny-embedder');

test('the resolver turns hybrid once the model is ready, though every document was indexed before', async () => {
  const home = tempDir();
  const spells = path.join(home.dir, 'spells');
  writeSpell(spells, 'unstable', unstableSpell());
  const runtime = await createRuntime({
    env: gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') }),
    spellDirs: [spells],
    imports: false,
    settingsOverrides: { resolve: { semantic: { enabled: true, model: tinyModel } }, discovery: { enabled: false } },
  });
  try {
    assert.equal(
      runtime.gateway.ports.resolverStatus().mode,
      'lexical-only',
      'the model cannot be ready the moment the runtime is built',
    );
    await waitFor(
      () => runtime.gateway.ports.resolverStatus().mode === 'hybrid',
      60_000,
      'the resolver in hybrid mode',
    );
    const [best] = (await runtime.gateway.ports.resolve('echo a message back')).ranked;
    assert.equal(best.name, 'unstable');
    assert.equal(typeof best.semantic, 'number', 'the ranking used the model');
  } finally {
    await runtime.close();
    home.cleanup();
  }
});
