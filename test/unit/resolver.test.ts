import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Bm25fIndex } from '../../server/text/bm25f.js';
import { rankingShape, spreadConfidence, topProbability } from '../../server/resolve/calibration.js';
import { DEFAULT_CALIBRATIONS, FITTED_ACTIVATE_THRESHOLD } from '../../server/resolve/default-calibration.js';
import { domainTags } from '../../server/resolve/domain-tags.js';
import { HybridResolver } from '../../server/resolve/hybrid-resolver.js';
import { LexicalResolver } from '../../server/resolve/lexical-resolver.js';
import { analyzeQuery } from '../../server/resolve/query-terms.js';
import { stem } from '../../server/text/stem.js';
import { terms } from '../../server/text/terms.js';
import { words } from '../../server/text/words.js';
import { decideTier } from '../../server/resolve/tiers.js';
import type { PowerDocument, PowerScore } from '../../server/resolve/types.js';

const thresholds = { activateThreshold: 0.85, multipleThreshold: 0.5, weakThreshold: 0.3 };

const powers: PowerDocument[] = [
  {
    name: 'filesystem',
    description: "Read, write, edit, move and search files and directories in the user's project folder.",
    keywords: ['file', 'folder', 'directory', 'read', 'write', 'project'],
    tools: [
      { name: 'read_text_file', description: 'Read the complete contents of a file', parameters: ['path'] },
      { name: 'list_directory' },
    ],
  },
  {
    name: 'memory',
    description: 'A persistent knowledge graph of entities and relations.',
    keywords: ['memory', 'remember', 'knowledge', 'graph'],
    tools: [
      { name: 'create_entities' },
      { name: 'read_graph', description: 'Read the entire knowledge graph' },
      { name: 'delete_entities' },
    ],
  },
  {
    name: 'github',
    description: 'Issues, pull requests and repositories on GitHub.',
    keywords: ['github', 'issue', 'pull request', 'repository'],
    tools: [{ name: 'createPullRequest' }, { name: 'list_issues' }],
  },
  {
    name: 'weather',
    description: 'Meteorological forecasts for any city.',
    keywords: ['forecast', 'meteorology', 'climate'],
    tools: [{ name: 'get_forecast', description: 'Forecast for a location' }],
  },
];

async function ranked(query: string, docs = powers): Promise<PowerScore[]> {
  const resolver = new HybridResolver(DEFAULT_CALIBRATIONS);
  resolver.index(docs);
  return resolver.rank(query);
}

test('words split identifiers and prose; stemming joins inflections and derivations', () => {
  assert.deepEqual(words('readTextFile list_issues get-env'), ['read', 'text', 'file', 'list', 'issues', 'get', 'env']);
  assert.equal(stem('files'), stem('file'));
  assert.equal(stem('reading'), stem('read'));
  assert.equal(stem('calculation'), stem('calculate'));
  assert.deepEqual(terms('Please read the files'), ['read', 'file']);
});

test('"id" is a word (an identifier), not a stop word: "the library id" matches `resolve-library-id`', () => {
  assert.deepEqual(terms('find the library id of prisma'), ['find', 'librari', 'id', 'prisma']);
  // "I'd" splits at its apostrophe: the contraction never reads as "id".
  assert.ok(!terms("I'd like the docs").includes('id'));
});

test('query analysis: subject words count fully, request words and verbs less, domains are tagged', () => {
  const analysis = analyzeQuery('Please provide detailed information on the rain forecast for tomorrow');
  const weight = (t: string) => analysis.terms.find((w) => w.term === stem(t))?.weight;
  assert.equal(weight('rain'), 1);
  assert.ok((weight('provide') ?? 1) < 0.5, 'generic request words weigh little');
  assert.ok(analysis.domains.includes('#weather'));
  assert.ok(
    analyzeQuery('delete the old entries and the stale backups of the archive').actions.includes(stem('delete')),
  );
});

test('content words that stem like request words are subjects; verbs count fully in a short request', () => {
  const long = analyzeQuery(
    'show the latest news headlines, the app settings, the error logs and the measurement records',
  );
  const weight = (analysis: ReturnType<typeof analyzeQuery>, t: string) =>
    analysis.terms.find((w) => w.term === stem(t))?.weight;
  for (const word of ['news', 'settings', 'logs', 'measurement', 'records']) assert.equal(weight(long, word), 1, word);
  assert.ok((weight(long, 'show') ?? 1) < 1, 'a verb weighs less in a long request');
  assert.equal(weight(analyzeQuery('send an email'), 'send'), 1, 'a verb counts fully in a short request');
});

test(
  'a clause about what the request names counts half and stays its subject; ' +
    'a verb that is as often a noun is matched as a verb only',
  () => {
    const weight = (analysis: ReturnType<typeof analyzeQuery>, t: string) =>
      analysis.terms.find((w) => w.term === stem(t));
    const note = analyzeQuery('add a note to the entry that she moved to Berlin');
    assert.equal(weight(note, 'note')?.weight, 1);
    assert.deepEqual(weight(note, 'berlin'), { term: stem('berlin'), weight: 0.5, subject: true });
    // The clause ends with its sentence.
    assert.equal(weight(analyzeQuery('List the files that changed. Show the diff of the branch'), 'branch')?.weight, 1);
    // "record" as the request's verb is no word to match a database's records by.
    assert.equal(weight(analyzeQuery('record that Alice manages Bob'), 'record'), undefined);
    assert.equal(weight(analyzeQuery('show the last record'), 'record')?.weight, 1);
  },
);

test('a web address in a request is what to act on: its host and path words are no subjects, it counts as "url"', () => {
  const terms = analyzeQuery('get the JSON from https://api.example.com/status').terms.map((t) => t.term);
  assert.ok(terms.includes(stem('url')) && terms.includes(stem('json')), terms.join(' '));
  for (const word of ['api', 'example', 'com', 'status', 'https']) assert.ok(!terms.includes(stem(word)), word);
});

test('the word an address stands as counts as a request word; "url" as the user wrote it is a subject', () => {
  const weight = (query: string) => analyzeQuery(query).terms.find((t) => t.term === 'url');
  assert.deepEqual(weight('download the page at https://example.com as markdown'), { term: 'url', weight: 0.25 });
  assert.deepEqual(weight('shorten this url'), { term: 'url', weight: 1, subject: true });
});

test('the word after "named", "called" or "titled" is a name to use, a request word, not what the request is about', () => {
  const report = (query: string) => analyzeQuery(query).terms.find((t) => t.term === stem('reports'));
  assert.deepEqual(report('make a new folder named reports'), { term: stem('reports'), weight: 0.25 });
  assert.deepEqual(report('summarize the quarterly reports'), { term: stem('reports'), weight: 1, subject: true });
  const resolver = new LexicalResolver();
  resolver.index([
    {
      name: 'files',
      description: 'Files and folders.',
      keywords: [],
      tools: [{ name: 'create_directory', description: 'Create a new directory or folder.', writes: true }],
    },
    {
      name: 'charts',
      description: 'Charts and diagrams.',
      keywords: [],
      tools: [
        {
          name: 'generate_organization_chart',
          description: 'Generate an organization chart of a CEO and their direct reports.',
        },
      ],
    },
  ]);
  assert.equal(resolver.rankTools('make a new folder named reports').map((c) => c.name)[0], 'files:create_directory');
});

test('a request to keep a fact ("remember that...", "record that...") is in the domain of facts', () => {
  assert.ok(analyzeQuery('record that Alice manages Bob').domains.includes('#memory'));
  assert.ok(!analyzeQuery('show the records that Alice changed').domains.includes('#memory'));
});

test('domain tags let a query meet a power that uses other words for the same domain', async () => {
  assert.ok(domainTags(terms('will it rain on Saturday')).has('#weather'));
  const [best] = await ranked('will it rain on Saturday');
  assert.equal(best.name, 'weather', 'no shared word, same domain');
});

test('BM25F: a field weight changes the ranking; length normalisation favours the focused document', () => {
  const fields = { title: { weight: 3, b: 0.5 }, body: { weight: 1, b: 0.75 } };
  const scores = (docs: Array<{ id: string; fields: Record<string, string[]> }>) => {
    const index = new Bm25fIndex(fields);
    index.build(docs);
    return Object.fromEntries(index.score([{ term: 'report', weight: 1 }]).map((r) => [r.id, r.score]));
  };
  const byField = scores([
    { id: 'title', fields: { title: ['report'], body: ['other'] } },
    { id: 'body', fields: { title: ['other'], body: ['report'] } },
  ]);
  assert.ok(byField.title > byField.body, 'title weighs more than body');
  const byLength = scores([
    { id: 'short', fields: { title: ['x'], body: ['report', 'one'] } },
    { id: 'long', fields: { title: ['y'], body: ['report', ...Array(40).fill('padding')] } },
  ]);
  assert.ok(byLength.short > byLength.long, 'a short body beats a long one');
});

test('Chinese text is indexed without breaking', async () => {
  const docs = [
    ...powers,
    { name: 'weather-cn', description: '查询城市天气预报', keywords: ['天气', '预报', 'weather'], tools: [] },
  ];
  const [best] = await ranked('明天北京天气怎么样', docs);
  assert.equal(best.name, 'weather-cn');
  assert.ok(best.confidence > 0);
});

test('an explicit request activates the right power', async () => {
  const result = await ranked('read a file from my project');
  assert.equal(result[0].name, 'filesystem');
  assert.ok(result[0].confidence >= 0.85, `confidence ${result[0].confidence}`);
  assert.equal(decideTier(result, thresholds).tier, 'activated');
});

test('one shared common word is never enough to auto-activate', async () => {
  const result = await ranked('purge the stale backups from the s3 bucket and delete old snapshots');
  assert.notEqual(decideTier(result, thresholds).tier, 'activated', JSON.stringify(result.slice(0, 2)));
});

test('nothing in common is not_found with zero confidence', async () => {
  const result = await ranked('book a flight to Lisbon');
  assert.ok(result.every((p) => p.confidence === 0));
  assert.equal(decideTier(result, thresholds).tier, 'not_found');
});

test('match type and matched terms explain the match; camelCase tool names match', () => {
  const resolver = new LexicalResolver();
  resolver.index(powers);
  const [best] = resolver.rankPowers('open a pull request');
  assert.equal(best.name, 'github');
  assert.ok(best.matchedTerms.includes('pull') && best.matchedTerms.includes('request'));
  assert.ok(best.coverage > 0.5 && best.normalized > 0 && best.normalized <= 1);
});

test('tool ranking finds the tool, named <power>:<tool>', () => {
  const resolver = new LexicalResolver();
  resolver.index(powers);
  assert.equal(resolver.rankTools('read the entire knowledge graph')[0].name, 'memory:read_graph');
});

test('calibration: a clear lead is confident, a near tie is not; features only raise confidence', () => {
  const model = DEFAULT_CALIBRATIONS.lexical;
  const clear = rankingShape({ score: 10, normalized: 0.6, coverage: 1 }, { score: 1 })!;
  const tie = rankingShape({ score: 10, normalized: 0.6, coverage: 1 }, { score: 9.5 })!;
  assert.ok(topProbability(clear, model) >= FITTED_ACTIVATE_THRESHOLD);
  assert.ok(topProbability(tie, model) < 0.7, 'a near tie is a coin toss between two');
  const onlyVerb = rankingShape({ score: 10, normalized: 0.6, coverage: 0 }, undefined)!;
  assert.equal(onlyVerb.lead, 0, 'a top that matched no subject word leads nobody');
  assert.ok(topProbability(onlyVerb, model) < 0.5);
  for (const key of ['lead', 'strength', 'coverage', 'semantic', 'semanticLead'] as const)
    assert.ok(model[key] >= 0, key);
  assert.equal(rankingShape({ score: 0, normalized: 0, coverage: 0 }, undefined), undefined);
});

test('the rest of the confidence is shared below the top', () => {
  const spread = spreadConfidence([10, 5, 5, 0], 0.6);
  assert.equal(spread[0], 0.6);
  assert.ok(Math.abs(spread[1] - 0.2) < 1e-9 && Math.abs(spread[2] - 0.2) < 1e-9);
  assert.equal(spread[3], 0);
});

test('status says lexical-only when no model is configured', () => {
  const resolver = new HybridResolver(DEFAULT_CALIBRATIONS);
  resolver.index(powers);
  assert.equal(resolver.status().mode, 'lexical-only');
});

test('tiers follow the thresholds', () => {
  const score = (name: string, confidence: number): PowerScore => ({
    name,
    confidence,
    score: confidence,
    relevance: confidence,
    matchType: 'keyword',
    matchedTerms: [],
  });
  assert.equal(decideTier([score('a', 0.9), score('b', 0.2)], thresholds).tier, 'activated');
  const multiple = decideTier([score('a', 0.6), score('b', 0.4), score('c', 0.35), score('d', 0.3)], thresholds);
  assert.equal(multiple.tier, 'multiple_matches');
  assert.deepEqual(
    multiple.candidates.map((c) => c.name),
    ['a', 'b', 'c'],
  );
  const spread = decideTier([score('a', 0.6), score('b', 0.05), score('c', 0.01), score('d', 0.01)], thresholds);
  assert.deepEqual(
    spread.candidates.map((c) => c.name),
    ['a', 'b', 'c'],
    'the top 3 by rank, however far below the top',
  );
  const weak = decideTier(
    ['a', 'b', 'c', 'd', 'e', 'f'].map((n, i) => score(n, i === 0 ? 0.4 : 0.02)),
    thresholds,
  );
  assert.equal(weak.tier, 'weak_matches');
  assert.deepEqual(
    weak.candidates.map((c) => c.name),
    ['a', 'b', 'c', 'd', 'e'],
  );
  assert.deepEqual(
    decideTier([score('a', 0.4), score('b', 0)], thresholds).candidates.map((c) => c.name),
    ['a'],
    'what matched nothing is no alternative',
  );
  assert.equal(decideTier([score('a', 0.29)], thresholds).tier, 'not_found');
  assert.equal(decideTier([], thresholds).tier, 'not_found');
});

test("one word met in a tool's name or prose never starts a power; the power's own name or keyword may", () => {
  const top = (
    matchType: PowerScore['matchType'],
    matchedTerms: string[],
    extra: Partial<PowerScore> = {},
  ): PowerScore => ({ name: 'a', confidence: 0.99, score: 1, relevance: 1, matchType, matchedTerms, ...extra });
  const tier = (score: PowerScore) => decideTier([score, { ...score, name: 'b', confidence: 0.01 }], thresholds).tier;
  assert.equal(
    tier(top('tool', ['long', '#time', 'long ago'])),
    'multiple_matches',
    'tags and phrases are no words of their own',
  );
  assert.equal(tier(top('tool', ['long', 'oper'])), 'activated');
  assert.equal(tier(top('keyword', ['rememb'])), 'activated');
  assert.equal(
    tier(top('tool', ['long'], { semantic: 0.8 })),
    'activated',
    'a similarity speaks for the whole request',
  );
});

test('a match on the domain a subject word signals covers half of that word: "add a note" is in part about a knowledge-graph power', () => {
  const resolver = new LexicalResolver();
  resolver.index([
    {
      name: 'graph',
      description: 'A knowledge graph of entities and observations.',
      keywords: [],
      tools: [{ name: 'add_observations', description: 'Add observations to entities.' }],
    },
    {
      name: 'disk',
      description: 'Move and copy files on disk.',
      keywords: [],
      tools: [{ name: 'move_file', description: 'Move a file. Note: it overwrites.' }],
    },
  ]);
  const [top] = resolver.rankPowers("add a note to Carol's entry in the old archive");
  assert.equal(top.name, 'graph');
  assert.ok(
    top.matchedTerms.includes('#memory') && !top.matchedTerms.includes(stem('note')),
    top.matchedTerms.join(' '),
  );
  // "note" is the only subject word the catalog knows (in the disk tool's prose), and the graph power covers half of it.
  assert.equal(top.coverage, 0.5);
});
