import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { benchAnswer, benchCatalog } from '../../server/bench/answer-bench.js';
import { readJsonl, type BenchServer, type BenchTool } from '../../server/bench/dataset.js';
import { activationAnswer, matchesAnswer } from '../../server/gateway/resolve-answer.js';
import { requiredArgs } from '../../server/gateway/tool-lines.js';
import type { PowerScore } from '../../server/resolve/types.js';
import { repoRoot } from '../helpers/temp.js';

/** The 14 real servers' captured tool lists (test/fixtures/real-servers), as the bench reads them. */
const dir = path.join(repoRoot, 'test', 'fixtures', 'benchmarks', 'real-servers');
const servers = readJsonl<BenchServer>(path.join(dir, 'servers.jsonl'));
const tools = readJsonl<BenchTool>(path.join(dir, 'tools.jsonl'));
const catalog = benchCatalog(servers, tools);
const { view } = catalog;

/** A tool ranking as the resolver gives it: names, best first. */
const ranking = (...names: string[]): PowerScore[] =>
  names.map((name, index) => ({
    name,
    score: 10 - index,
    relevance: 1 - index / 10,
    confidence: 0.5,
    matchType: 'tool',
    matchedTerms: [],
  }));

test('required arguments with their types, and how many optional ones there are', () => {
  const byId = (id: string) => tools.find((t) => t.tool_id === id)!;
  assert.equal(requiredArgs(byId('sqlite:query') as never), '{sql: string} (+1 optional)');
  assert.equal(requiredArgs(byId('memory:read_graph') as never), '{}');
  assert.equal(
    requiredArgs(byId('time:convert_time') as never),
    '{sourceTimezone: string, targetTimezone: string, time: string}',
  );
});

test(
  'multiple_matches: each power shown names at most three of its ranked tools, ' +
    'each callable with the variant its annotations call for',
  () => {
    const toolRanking = ranking(
      'filesystem:write_file',
      'desktop-commander:start_process',
      'filesystem:read_text_file',
      'filesystem:edit_file',
      'sqlite:query',
      'filesystem:list_directory',
      'memory:read_graph',
    );
    const answer = matchesAnswer(
      view,
      'multiple_matches',
      [
        { name: 'filesystem', confidence: 0.8 },
        { name: 'desktop-commander', confidence: 0.5 },
        { name: 'sqlite', confidence: 0.3 },
        { name: 'time', confidence: 0.2 },
      ],
      toolRanking,
    );
    const matches = answer.matches as Array<{ name: string; tools?: string[]; description: string }>;
    assert.deepEqual(
      matches.map((m) => m.name),
      ['filesystem', 'desktop-commander', 'sqlite', 'time'],
    );
    const fs = matches[0].tools!;
    assert.equal(fs.length, 3, 'at most three');
    assert.match(
      fs[0],
      /^filesystem:write_file via call_tool_destructive, args \{path: string, content: string\}: /,
      'the server marks write_file destructive',
    );
    assert.match(fs[1], /^filesystem:read_text_file via call_tool_read, /, 'declared read-only');
    assert.match(fs[2], /^filesystem:edit_file /);
    assert.match(
      matches[1].tools![0],
      /^desktop-commander:start_process via call_tool_destructive, args \{command: string, timeout_ms: number\} \(\+3 optional\)/,
    );
    assert.match(
      matches[2].tools![0],
      /^sqlite:query via call_tool_write, /,
      'no annotations: a read guessed from the name is advice, never call_tool_read',
    );
    assert.equal(matches[3].tools, undefined, 'a power none of whose tools were ranked names none');
    assert.match(
      answer.message as string,
      /call_tool_destructive\(\{ name: 'filesystem:write_file', args: \{\.\.\.\}, intent: \{ operation_type: 'destructive' \} \}\)/,
    );
  },
);

test('not_found offers the closest tools the ranking matched, and none when it matched nothing', () => {
  const some = matchesAnswer(view, 'not_found', [], ranking('time:current_time'));
  assert.deepEqual(some.closest_tools, [
    'time:current_time via call_tool_write (not confirmed read-only), args {} (+2 optional): Get the current date and time.',
  ]);
  const powers = some.powers as { name: string; description?: string }[];
  assert.equal(powers.length, 14);
  assert.ok(
    powers.every((p) => p.description),
    'few powers: each described in a sentence',
  );
  const none = matchesAnswer(view, 'not_found', [], []);
  assert.equal(none.closest_tools, undefined);
  assert.doesNotMatch(none.message as string, /call_tool_/);
});

test(
  'an activation does not repeat the listed tools: best ones by their listed names, ' +
    'the unlisted as lines, guidance only when given',
  () => {
    const listed = view
      .toolsOf('memory')
      .slice(0, 5)
      .map((t) => ({ tool: t.name, listedAs: `memory__${t.name}` }));
    const best = view.toolsOf('memory').filter((t) => ['search_nodes', 'create_entities'].includes(t.name));
    const answer = activationAnswer(view, { power: 'memory', exposed: listed, held: [] }, best);
    assert.deepEqual(answer.best_tools, ['memory__create_entities']);
    assert.deepEqual(answer.call_with_tools, [
      `memory:search_nodes via call_tool_read, args {query: string}: Search for nodes in the knowledge graph based on a query`,
    ]);
    assert.equal(answer.guidance, undefined);
    assert.match(answer.message as string, /3 more of its tools are not in your list: retrieve_tools/);
    const byName = activationAnswer(
      view,
      { power: 'memory', exposed: [], held: [], guidance: 'Search before you create.' },
      undefined,
    );
    assert.equal(
      (byName.call_with_tools as string[]).length,
      9,
      'an activation by name with nothing listed names every tool',
    );
    assert.equal(byName.guidance, 'Search before you create.');
  },
);

test('one_trip: an answer counts when it names a right tool, or activated a power that has one', () => {
  const relevant = new Set(['sqlite:list_tables']);
  const named = benchAnswer(
    catalog,
    { tier: 'multiple_matches', candidates: [{ name: 'sqlite', confidence: 0.7 }] },
    ranking('sqlite:list_tables'),
    relevant,
  );
  assert.equal(named.oneTrip, true);
  assert.ok(named.tokens > 10 && named.tokens < 300, `${named.tokens} tokens`);
  const wrongTool = benchAnswer(
    catalog,
    { tier: 'multiple_matches', candidates: [{ name: 'sqlite', confidence: 0.7 }] },
    ranking('sqlite:query'),
    relevant,
  );
  assert.equal(wrongTool.oneTrip, false, 'the right power with only a wrong tool named is one more trip');
  assert.equal(
    benchAnswer(catalog, { tier: 'activated', candidates: [{ name: 'sqlite', confidence: 0.99 }] }, [], relevant)
      .oneTrip,
    true,
  );
  assert.equal(
    benchAnswer(catalog, { tier: 'activated', candidates: [{ name: 'time', confidence: 0.99 }] }, [], relevant).oneTrip,
    false,
  );
});

test('not_found over a large catalog still lists every power, by name only', () => {
  const many = Array.from({ length: 30 }, (_, i) => ({
    server: `power-${i}`,
    description: `Power number ${i} does a thing.`,
  }));
  const big = benchCatalog(many, []);
  const answer = matchesAnswer(big.view, 'not_found', [], []);
  assert.deepEqual(
    answer.powers,
    many.map((s) => ({ name: s.server })),
  );
});

test('an answer ranked on a partial catalog says so, and a complete one does not', () => {
  const note =
    "Ranked before every power's tools were listed (still listing: github); ask again shortly if nothing fits.";
  const partial = matchesAnswer(view, 'not_found', [], ranking('time:current_time'), { partial: note });
  assert.equal(partial.partial, note);
  const matches = matchesAnswer(
    view,
    'weak_matches',
    [{ name: 'time', confidence: 0.4 }],
    ranking('time:current_time'),
    { partial: note },
  );
  assert.equal(matches.partial, note);
  assert.equal(
    matchesAnswer(view, 'weak_matches', [{ name: 'time', confidence: 0.4 }], ranking('time:current_time')).partial,
    undefined,
  );
});
