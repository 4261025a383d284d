import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { DEFAULT_CALIBRATIONS, FITTED_ACTIVATE_THRESHOLD } from '../../server/resolve/default-calibration.js';
import { HybridResolver } from '../../server/resolve/hybrid-resolver.js';
import { decideTier } from '../../server/resolve/tiers.js';
import type { PowerDocument } from '../../server/resolve/types.js';
import { repoRoot } from '../helpers/temp.js';

/** The three bundled demo powers, as their spell files describe them (no tools listed yet). */
function demoPowers(): PowerDocument[] {
  const dir = path.join(repoRoot, 'server', 'demo', 'powers');
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.spell.yaml'))
    .map((file) => {
      const spell = parse(fs.readFileSync(path.join(dir, file), 'utf8')) as {
        name: string;
        description: string;
        keywords?: string[];
      };
      return { name: spell.name, description: spell.description, keywords: spell.keywords ?? [], tools: [] };
    });
}

const thresholds = { activateThreshold: FITTED_ACTIVATE_THRESHOLD, multipleThreshold: 0.5, weakThreshold: 0.3 };

async function resolve(query: string) {
  const resolver = new HybridResolver(DEFAULT_CALIBRATIONS);
  resolver.index(demoPowers());
  const ranked = await resolver.rank(query);
  return { ranked, ...decideTier(ranked, thresholds) };
}

test('a clear keyword match among a few unrelated powers activates: "remember that ..." -> memory', async () => {
  const { tier, candidates, ranked } = await resolve('remember that Ada Lovelace wrote the first program');
  assert.equal(tier, 'activated', JSON.stringify(ranked.slice(0, 2)));
  assert.equal(candidates[0].name, 'memory');
});

test('a request no demo power serves activates nothing', async () => {
  const { tier } = await resolve('book a flight to Lisbon');
  assert.equal(tier, 'not_found');
});
