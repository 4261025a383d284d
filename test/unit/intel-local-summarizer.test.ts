import { test } from 'node:test';
import assert from 'node:assert/strict';
import { summarizeLocally } from '../../server/intel/local/local-summarizer.js';
import { expandIdentifiers } from '../../server/intel/local/expand.js';
import { compactValues, expandCompact } from '../../server/intel/local/compact.js';

/** Every fact in the summary's text or among its (expanded) identifiers. */
function assertKept(summary: ReturnType<typeof summarizeLocally>, facts: string[]): void {
  const text = JSON.stringify(summary);
  const ids = expandIdentifiers(summary.identifiers);
  const lost = facts.filter((fact) => !text.includes(fact) && !ids.has(fact));
  assert.deepEqual(lost, [], `facts lost: ${lost.join(', ')}\n${JSON.stringify(summary, null, 1)}`);
}

function assertShape(summary: ReturnType<typeof summarizeLocally>): void {
  assert.ok(
    summary.keyFindings.length >= 3 && summary.keyFindings.length <= 5,
    `3-5 findings: ${summary.keyFindings.length}`,
  );
  assert.ok(Array.isArray(summary.actionableInsights));
}

const githubIssues = Array.from({ length: 40 }, (_, i) => ({
  url: `https://api.github.com/repos/acme/rocket/issues/${3100 + i}`,
  html_url: `https://github.com/acme/rocket/issues/${3100 + i}`,
  id: 2_200_000_000 + i * 37,
  node_id: `I_kwDOAbCd${(5000 + i * 13).toString(36)}`,
  number: 3100 + i,
  title: i === 7 ? 'Crash when the config file is missing' : `Support option ${i} in the launcher`,
  user: { login: ['mona', 'hubot', 'octocat', 'defunkt'][i % 4], id: 583231 + (i % 4) },
  labels: i % 6 === 1 ? [{ id: 1, name: 'bug' }] : [{ id: 2, name: 'enhancement' }],
  state: i % 3 === 0 ? 'closed' : 'open',
  comments: (i * 7) % 23,
  created_at: `2025-0${1 + (i % 9)}-1${i % 10}T08:00:00Z`,
  body: 'Steps to reproduce: run the launcher with the default settings and watch the output. '.repeat(3),
}));

test('JSON: a GitHub issue list keeps every number and id, URLs as templates, state counts and the flagged issue', () => {
  const summary = summarizeLocally({ text: JSON.stringify(githubIssues, null, 2) });
  assertShape(summary);
  assert.equal(summary.kind, 'json');
  assertKept(summary, [
    ...githubIssues.map((i) => String(i.number)),
    ...githubIssues.map((i) => String(i.id)),
    ...githubIssues.map((i) => i.html_url),
    'mona',
    'octocat',
  ]);
  const text = summary.keyFindings.join(' ');
  assert.match(text, /Array of 40 objects/);
  assert.match(text, /state: open 26, closed 14/);
  assert.match(text, /Crash when the config file is missing/, 'the crash issue is salient');
});

test('JSON: a paginated API response says there is more and keeps the ids of this page', () => {
  const page = {
    object: 'list',
    has_more: true,
    next_cursor: 'cus_Q9z8',
    data: Array.from({ length: 25 }, (_, i) => ({
      id: `cus_${(1000 + i).toString(36)}X`,
      email: `user${i}@example.com`,
      name: `Customer ${i}`,
      balance: i * 100,
    })),
  };
  const summary = summarizeLocally({ text: JSON.stringify(page) });
  assertShape(summary);
  assertKept(
    summary,
    page.data.map((c) => c.id),
  );
  assert.ok(
    summary.actionableInsights.some((i) => /More results are available.*cus_Q9z8/.test(i)),
    summary.actionableInsights.join('\n'),
  );
});

test('JSON: a directory tree keeps every path, grouped by folder', () => {
  const tree = [
    { name: 'README.md', type: 'file' },
    {
      name: 'src',
      type: 'directory',
      children: Array.from({ length: 30 }, (_, i) => ({ name: `part${i}.ts`, type: 'file' })).concat([
        { name: 'deep', type: 'directory', children: [{ name: 'leaf.json', type: 'file' }] } as never,
      ]),
    },
    { name: 'docs', type: 'directory', children: [{ name: 'guide.md', type: 'file' }] },
  ];
  const summary = summarizeLocally({ text: JSON.stringify(tree, null, 2) });
  assertShape(summary);
  assertKept(summary, ['README.md', 'src/part0.ts', 'src/part29.ts', 'src/deep/leaf.json', 'docs/guide.md']);
  assert.match(summary.keyFindings[0]!, /Tree of 36 entries: 33 files and 3 folders, 3 levels deep/);
});

test('JSON: a map of packages (lock file) keeps name@version; what does not fit is said to be in the artifact', () => {
  const lock = (n: number) => {
    const packages: Record<string, { version: string; resolved: string; integrity: string }> = {};
    for (let i = 0; i < n; i++)
      packages[`node_modules/pkg-${i}`] = {
        version: `1.${i}.0`,
        resolved: `https://registry.npmjs.org/pkg-${i}/-/pkg-${i}-1.${i}.0.tgz`,
        integrity: `sha512-${'x'.repeat(40)}${i}`,
      };
    return JSON.stringify({ name: 'app', lockfileVersion: 3, packages }, null, 2);
  };
  const small = summarizeLocally({ text: lock(20) });
  assertShape(small);
  assertKept(
    small,
    Array.from({ length: 20 }, (_, i) => `node_modules/pkg-${i}@1.${i}.0`),
  );
  const large = summarizeLocally({ text: lock(400) });
  assertShape(large);
  assertKept(large, ['node_modules/pkg-0@1.0.0', 'node_modules/pkg-1@1.1.0']);
  assert.match(large.keyFindings.join(' '), /map of 400 entries/);
  assert.ok(
    large.actionableInsights.some((i) =>
      /more identifiers did not fit here: they are in the full result \(read_artifact\)/.test(i),
    ),
    large.actionableInsights.join('\n'),
  );
});

test('text: a log keeps the level counts, the first error and the ids on error lines', () => {
  const lines: string[] = [];
  for (let i = 0; i < 400; i++) {
    const time = `2025-03-04T10:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z`;
    if (i === 123)
      lines.push(
        `${time} ERROR payment failed for order 5521 request_id=0f8fad5b-d9cb-469f-a165-70867728950e code=E4021`,
      );
    else if (i % 97 === 0) lines.push(`${time} WARN slow query took ${i} ms`);
    else lines.push(`${time} INFO handled GET /api/items/${i} in ${i % 40} ms`);
  }
  const summary = summarizeLocally({ text: lines.join('\n') });
  assert.equal(summary.kind, 'log');
  assertShape(summary);
  assertKept(summary, ['0f8fad5b-d9cb-469f-a165-70867728950e', 'E4021']);
  assert.match(summary.keyFindings.join(' '), /ERROR 1/);
  assert.match(summary.actionableInsights.join(' '), /line 124/);
});

test('text: Markdown keeps its headings and links; CSV keeps its id column; code keeps its declarations', () => {
  const md = [
    '# Rocket launcher',
    '',
    'The launcher starts rockets from the command line and reports telemetry.',
    '',
    '## Install',
    '',
    'Run `npm install rocket` and see [the guide](https://rocket.dev/guide).',
    '',
    '## Configure',
    '',
    ...Array.from(
      { length: 40 },
      (_, i) => `Option ${i} changes the behaviour of stage ${i} of the flight plan in a documented way.`,
    ),
    '',
    '## Troubleshooting',
    '',
    'See [issues](https://github.com/acme/rocket/issues) and [faq](docs/faq.md).',
  ].join('\n');
  const markdown = summarizeLocally({ text: md });
  assert.equal(markdown.kind, 'markdown');
  assertShape(markdown);
  assertKept(markdown, [
    'Install',
    'Configure',
    'Troubleshooting',
    'https://rocket.dev/guide',
    'https://github.com/acme/rocket/issues',
    'docs/faq.md',
  ]);

  const csv = [
    'order_id,customer,status,total',
    ...Array.from(
      { length: 120 },
      (_, i) => `ORD-${7000 + i},Customer ${i % 17},${['paid', 'refunded', 'pending'][i % 3]},${(i * 3.5).toFixed(2)}`,
    ),
  ].join('\n');
  const table = summarizeLocally({ text: csv });
  assert.equal(table.kind, 'table');
  assertShape(table);
  assertKept(table, ['ORD-7000', 'ORD-7119', 'ORD-7050']);
  assert.match(table.keyFindings.join(' '), /status: paid 40, pending 40, refunded 40/);

  const source = [
    '/** Flight control for the launcher. */',
    "import { Engine } from './engine';",
    '',
    ...Array.from(
      { length: 30 },
      (_, i) => `export function stage${i}(engine: Engine): number {\n  return engine.burn(${i});\n}\n`,
    ),
    '// TODO: abort sequence',
  ].join('\n');
  const code = summarizeLocally({ text: source, args: { path: '/project/src/flight.ts' } });
  assert.equal(code.kind, 'code');
  assertShape(code);
  assertKept(code, ['stage0', 'stage29', './engine']);
  assert.match(code.actionableInsights.join(' '), /TODO: abort sequence/);
});

test('text: prose is summarized by its most central sentences, in order, and keeps URLs', () => {
  const filler = Array.from(
    { length: 60 },
    (_, i) => `Paragraph ${i} mentions weather and lunch and other unrelated matters at some length.`,
  );
  const prose = [
    'The gateway summarizes large tool results so that the agent keeps its context for the task.',
    ...filler.slice(0, 30),
    'Summaries keep the identifiers of the result, and the gateway keeps the full result as an artifact for the agent.',
    ...filler.slice(30),
    'Details are at https://grimoire.dev/intel.',
  ].join('\n');
  const summary = summarizeLocally({ text: prose });
  assert.equal(summary.kind, 'text');
  assertShape(summary);
  assert.match(summary.keyFindings.join(' '), /gateway summarizes large tool results/);
  assertKept(summary, ['https://grimoire.dev/intel']);
});

test('listings: [DIR]/[FILE] entries and search results (paths) keep every name', () => {
  const listing = Array.from({ length: 80 }, (_, i) =>
    i % 10 === 0 ? `[DIR] folder${i}` : `[FILE] file${i}.txt`,
  ).join('\n');
  const summary = summarizeLocally({ text: listing });
  assert.equal(summary.kind, 'listing');
  assertKept(summary, ['folder0/', 'file79.txt', 'file41.txt']);
  const paths = Array.from({ length: 60 }, (_, i) => `/home/dev/project/src/module${i % 4}/file${i}.ts`).join('\n');
  const found = summarizeLocally({ text: paths });
  assert.equal(found.kind, 'listing');
  assertKept(found, ['/home/dev/project/src/module0/file0.ts', '/home/dev/project/src/module3/file59.ts']);
});

test('the local summarizer is deterministic', () => {
  const text = JSON.stringify(githubIssues);
  assert.deepEqual(summarizeLocally({ text }), summarizeLocally({ text }));
});

test('compact lists: integer runs, numbered names, shared prefixes, a budget that says what it left out', () => {
  assert.equal(compactValues([5, 1, 2, 3, 9, 10], 100).text, '1..3 5 9 10');
  const numbered = ['ORD-7000', 'ORD-7001', 'ORD-7002', 'ORD-7005', 'file3.ts'];
  assert.equal(compactValues(numbered, 100).text, 'ORD-{7000..7002,7005} file3.ts');
  assert.deepEqual(expandCompact('ORD-{7000..7002,7005} file3.ts'), numbered);
  const urls = ['https://x.dev/a/one', 'https://x.dev/a/two', 'https://x.dev/a/three'];
  const compact = compactValues(urls, 100);
  assert.equal(compact.text, 'https://x.dev/a/{one,two,three}');
  assert.deepEqual(expandCompact(compact.text), urls);
  const cut = compactValues(
    Array.from({ length: 100 }, (_, i) => `name-${(i * 7919) % 1000}x`),
    60,
  );
  assert.ok(cut.text.length <= 80, cut.text);
  assert.ok(cut.kept < 100);
  assert.match(cut.text, new RegExp(`…\\+${100 - cut.kept} more$`));
  for (const value of expandCompact(cut.text)) assert.match(value, /^name-\d+x$/);
});
