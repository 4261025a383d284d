import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Tool } from '../../server/util/mcp-types.js';
import { Catalog } from '../../server/catalog/catalog.js';
import { Store } from '../../server/store/store.js';
import { tempDir } from '../helpers/temp.js';

const tool = (name: string, description: string): Tool => ({
  name,
  description,
  inputSchema: { type: 'object', properties: {} },
});

test('the catalog keeps tools with hashes and records added, changed and removed tools', async () => {
  const { dir, cleanup } = tempDir();
  try {
    const store = await Store.open({ dataDir: dir });
    const catalog = new Catalog(store);
    assert.equal(catalog.refreshedAt('p'), undefined);

    const first = catalog.record('p', [tool('a', 'first a'), tool('b', 'first b')], 1000);
    assert.deepEqual(first.map((c) => `${c.kind}:${c.tool}`).sort(), ['added:a', 'added:b']);
    assert.equal(catalog.refreshedAt('p'), 1000);
    const version = catalog.version;

    assert.deepEqual(
      catalog.record('p', [tool('a', 'first a'), tool('b', 'first b')], 2000),
      [],
      'same tools: no change',
    );
    assert.equal(catalog.version, version, 'no change keeps the version');

    const second = catalog.record('p', [tool('a', 'a now does something else'), tool('c', 'new c')], 3000);
    assert.deepEqual(second.map((c) => `${c.kind}:${c.tool}`).sort(), ['added:c', 'changed:a', 'removed:b']);
    assert.ok(catalog.version > version);

    const tools = catalog.tools('p');
    assert.deepEqual(
      tools.map((t) => t.name),
      ['a', 'c'],
    );
    const a = tools.find((t) => t.name === 'a')!;
    assert.equal(a.firstSeen, 1000, 'first seen survives a change');
    assert.equal(a.lastSeen, 3000);
    assert.equal((await catalog.changes('p')).length, 5);
    store.close();

    const reopened = await Store.open({ dataDir: dir });
    assert.deepEqual(
      new Catalog(reopened).tools('p').map((t) => t.description),
      ['a now does something else', 'new c'],
    );
    reopened.close();
  } finally {
    cleanup();
  }
});
