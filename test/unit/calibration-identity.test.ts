import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  fitCalibration,
  rankingShape,
  topProbability,
  type TrainingExample,
} from '../../server/resolve/calibration.js';
import { DEFAULT_CALIBRATIONS } from '../../server/resolve/default-calibration.js';
import { LexicalResolver } from '../../server/resolve/lexical-resolver.js';
import type { PowerDocument } from '../../server/resolve/types.js';

const powers: PowerDocument[] = [
  {
    name: 'memory',
    description: 'A persistent knowledge graph of entities and relations.',
    keywords: ['remember', 'recall'],
    tools: [{ name: 'create_entities' }],
  },
  {
    name: 'notes',
    description: 'Keep notes and remember them across sessions.',
    keywords: [],
    tools: [{ name: 'add_note' }],
  },
  {
    name: 'filesystem',
    description: 'Read and write files in the project folder.',
    keywords: ['file'],
    tools: [{ name: 'read_file' }],
  },
];

test('identity is the share of the score matched in the name or keywords', () => {
  const resolver = new LexicalResolver();
  resolver.index(powers);
  const ranked = resolver.rankPowers('remember my sister is called Ann');
  const memory = ranked.find((c) => c.name === 'memory')!;
  const notes = ranked.find((c) => c.name === 'notes')!;
  assert.ok(memory.identity > 0.3, `keyword match: ${memory.identity}`);
  assert.equal(notes.identity, 0, 'the same word in a description is no identity match');
  assert.ok(ranked.every((c) => c.identity >= 0 && c.identity <= 1));
  assert.equal(resolver.rankPowers('knowledge graph').find((c) => c.name === 'memory')!.identity, 0);
});

test('the same ranking shape is more confident when the top matched its keywords than its description', () => {
  const model = DEFAULT_CALIBRATIONS.lexical;
  assert.ok((model.identity ?? 0) > 0, 'the shipped model weighs identity');
  const described = rankingShape({ score: 4, normalized: 0.5, coverage: 1, identity: 0 }, { score: 1.2 })!;
  const declared = rankingShape({ score: 4, normalized: 0.5, coverage: 1, identity: 0.7 }, { score: 1.2 })!;
  assert.ok(topProbability(declared, model) > topProbability(described, model));
});

test('a model without the identity weight (fitted before it existed) still gives a probability', () => {
  const { identity: _dropped, ...older } = DEFAULT_CALIBRATIONS.lexical;
  const p = topProbability(
    rankingShape({ score: 4, normalized: 0.5, coverage: 1, identity: 0.7 }, { score: 1.2 })!,
    older,
  );
  assert.ok(Number.isFinite(p) && p > 0 && p < 1);
});

/** A deterministic toy set: identity matches are more often right than the rest. */
function examples(): TrainingExample[] {
  const out: TrainingExample[] = [];
  for (let i = 0; i < 200; i += 1) {
    const lead = (i % 10) / 4;
    const identity = i % 3 === 0 ? 0.8 : 0;
    const correct = identity > 0 ? i % 20 !== 0 : lead > 1 ? i % 4 !== 0 : i % 2 === 0;
    out.push({ shape: { lead, strength: 0.5, coverage: 1, identity }, correct, weight: 1 });
  }
  return out;
}

test('identity is fitted as a lift: the bias and the other weights are what they are without it', () => {
  const withIdentity = fitCalibration(examples(), { useSemantic: false, iterations: 1500 });
  const without = fitCalibration(
    examples().map((e) => ({ ...e, shape: { ...e.shape, identity: 0 } })),
    { useSemantic: false, iterations: 1500 },
  );
  assert.ok(withIdentity.identity! > 0, `identity weight ${withIdentity.identity}`);
  assert.equal(withIdentity.bias, without.bias);
  assert.equal(withIdentity.lead, without.lead);
  assert.equal(withIdentity.coverage, without.coverage);
  const shape = { lead: 1, strength: 0.5, coverage: 1, identity: 0 };
  assert.equal(
    topProbability(shape, withIdentity),
    topProbability(shape, without),
    'a top without an identity match keeps its confidence',
  );
});
