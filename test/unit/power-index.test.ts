import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_CALIBRATIONS } from '../../server/resolve/default-calibration.js';
import { HybridResolver } from '../../server/resolve/hybrid-resolver.js';
import { PowerIndex } from '../../server/resolve/power-index.js';
import type { PowerDocument } from '../../server/resolve/types.js';

const doc = (name: string, description: string, tools: string[]): PowerDocument => ({
  name,
  description,
  keywords: [],
  tools: tools.map((t) => ({ name: t, description: `${t.replace(/_/g, ' ')}` })),
});

test('the power index ranks over the documents it read at the last reindex, and a reindex reads them anew', async () => {
  let documents = [
    doc('weather', 'Forecasts and current weather for a city', ['get_forecast']),
    doc('files', 'Read and write files on disk', ['read_file', 'write_file']),
  ];
  let reads = 0;
  const resolver = new HybridResolver(DEFAULT_CALIBRATIONS);
  const index = new PowerIndex(resolver, () => {
    reads += 1;
    return documents;
  });
  index.reindex();
  assert.equal(reads, 1);
  const first = await index.rank('  Weather   FORECAST ');
  assert.equal(first[0].name, 'weather');
  assert.equal(await index.rank('weather forecast'), first, 'the same query, normalized, is answered from the cache');
  assert.equal((await index.rankTools('read a file'))[0].name, 'files:read_file');
  assert.equal(index.status().mode, 'lexical-only');

  documents = [doc('calendar', 'Meetings and weather of the day', ['list_events']), ...documents.slice(1)];
  assert.equal((await index.rank('weather forecast'))[0].name, 'weather', 'nothing is read until the next reindex');
  index.reindex();
  assert.equal(reads, 2);
  const after = await index.rank('weather forecast');
  assert.notEqual(after, first, 'a reindex empties the cache');
  assert.equal(
    after.some((c) => c.name === 'weather'),
    false,
  );
});
