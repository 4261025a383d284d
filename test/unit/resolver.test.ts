import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LexicalResolver } from '../../server/resolve/lexical-resolver.js';
import { stem, terms, words } from '../../server/resolve/text.js';
import { decideTier } from '../../server/resolve/tiers.js';
import type { PowerDocument, PowerScore } from '../../server/resolve/types.js';

const thresholds = { activateThreshold: 0.85, multipleThreshold: 0.5, weakThreshold: 0.3 };

const powers: PowerDocument[] = [
  {
    name: 'filesystem',
    description: "Read, write, edit, move and search files and directories in the user's project folder.",
    keywords: ['file', 'folder', 'directory', 'read', 'write', 'project'],
    tools: [{ name: 'read_text_file', description: 'Read the complete contents of a file' }, { name: 'list_directory' }],
  },
  {
    name: 'memory',
    description: 'A persistent knowledge graph of entities and relations.',
    keywords: ['memory', 'remember', 'knowledge', 'graph'],
    tools: [{ name: 'create_entities' }, { name: 'read_graph', description: 'Read the entire knowledge graph' }, { name: 'delete_entities' }],
  },
  {
    name: 'github',
    description: 'Issues, pull requests and repositories on GitHub.',
    keywords: ['github', 'issue', 'pull request', 'repository'],
    tools: [{ name: 'createPullRequest' }, { name: 'list_issues' }],
  },
];

function resolver(): LexicalResolver {
  const r = new LexicalResolver();
  r.index(powers);
  return r;
}

test('words split identifiers and prose; stemming joins inflections', () => {
  assert.deepEqual(words('readTextFile list_issues get-env'), ['read', 'text', 'file', 'list', 'issues', 'get', 'env']);
  assert.equal(stem('files'), 'file');
  assert.equal(stem('reading'), 'read');
  assert.equal(stem('entities'), 'entity');
  assert.deepEqual(terms('Please read the files'), ['read', 'file']);
});

test('Chinese text is indexed without breaking', () => {
  const r = new LexicalResolver();
  r.index([...powers, { name: 'weather-cn', description: '查询城市天气预报', keywords: ['天气', '预报', 'weather'], tools: [] }]);
  const ranked = r.rankNow('明天北京天气怎么样');
  assert.equal(ranked[0].name, 'weather-cn');
  assert.ok(ranked[0].confidence > 0);
});

test('an explicit request activates the right power', () => {
  const [best] = resolver().rankNow('read a file from my project');
  assert.equal(best.name, 'filesystem');
  assert.ok(best.confidence >= 0.85, `confidence ${best.confidence}`);
  assert.equal(decideTier(resolver().rankNow('read a file from my project'), thresholds).tier, 'activated');
});

test('one shared common word is never enough to auto-activate', () => {
  const ranked = resolver().rankNow('delete the old backups from the s3 bucket');
  assert.equal(ranked[0].name, 'memory', 'delete matches memory tools');
  assert.ok(ranked[0].confidence < 0.5, `confidence ${ranked[0].confidence}`);
  assert.notEqual(decideTier(ranked, thresholds).tier, 'activated');
});

test('nothing in common is not_found with zero confidence', () => {
  const ranked = resolver().rankNow('book a flight to Lisbon');
  assert.ok(ranked.every((p) => p.confidence === 0));
  assert.equal(decideTier(ranked, thresholds).tier, 'not_found');
});

test('match type names the field that matched most; camelCase tool names match', () => {
  const [best] = resolver().rankNow('create pull request');
  assert.equal(best.name, 'github');
  assert.ok(['tool', 'keyword'].includes(best.matchType));
  assert.deepEqual(best.matchedTerms.sort(), ['create', 'pull', 'request'].sort());
});

test('tiers follow the thresholds', () => {
  const score = (name: string, confidence: number): PowerScore => ({ name, confidence, score: confidence, matchType: 'keyword', matchedTerms: [] });
  assert.equal(decideTier([score('a', 0.9), score('b', 0.2)], thresholds).tier, 'activated');
  const multiple = decideTier([score('a', 0.6), score('b', 0.4), score('c', 0.35), score('d', 0.3)], thresholds);
  assert.equal(multiple.tier, 'multiple_matches');
  assert.deepEqual(multiple.candidates.map((c) => c.name), ['a', 'b', 'c']);
  assert.equal(decideTier([score('a', 0.4)], thresholds).tier, 'weak_matches');
  assert.equal(decideTier([score('a', 0.29)], thresholds).tier, 'not_found');
  assert.equal(decideTier([], thresholds).tier, 'not_found');
});
