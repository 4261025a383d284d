import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { benchPowers, readJsonl, type BenchServer, type BenchTool } from '../../server/bench/dataset.js';
import { LexicalResolver } from '../../server/resolve/lexical-resolver.js';
import type { PowerDocument } from '../../server/resolve/types.js';
import { repoRoot } from '../helpers/temp.js';

/** The 14 real servers' captured tool lists, with their spell-like descriptions, as the bench reads them. */
const dir = path.join(repoRoot, 'test', 'fixtures', 'benchmarks', 'real-servers');
const realServers = benchPowers(
  readJsonl<BenchServer>(path.join(dir, 'servers.jsonl')),
  readJsonl<BenchTool>(path.join(dir, 'tools.jsonl')),
);

const top = (resolver: LexicalResolver, query: string) =>
  resolver
    .rankTools(query)
    .slice(0, 3)
    .map((t) => t.name);

test('a tool whose description is about the request outranks one that only takes a parameter named like it', () => {
  const powers: PowerDocument[] = [
    {
      name: 'calendar',
      description: 'Events and meetings in the user calendar.',
      keywords: ['calendar'],
      tools: [
        { name: 'list_events', description: 'Events between two dates', parameters: ['start', 'end'] },
        { name: 'create_event', description: 'Create an event', parameters: ['title', 'when', 'reminder'] },
      ],
    },
    {
      name: 'notes',
      description: 'Plain text notes.',
      keywords: ['notes'],
      tools: [
        {
          name: 'add_reminder',
          description: 'Set a reminder to come back to a note later',
          parameters: ['note', 'at'],
        },
        { name: 'read_note', description: 'Read a note', parameters: ['note', 'reminder', 'event'] },
      ],
    },
  ];
  const resolver = new LexicalResolver();
  resolver.index(powers);
  const ranked = top(resolver, 'set a reminder');
  assert.equal(ranked[0], 'notes:add_reminder', `tools: ${ranked.join(', ')}`);
  assert.ok(ranked.indexOf('notes:read_note') === -1 || ranked.indexOf('notes:read_note') > 0);
  const tools = resolver.rankTools('set a reminder');
  const readNote = tools.find((t) => t.name === 'notes:read_note');
  const createEvent = tools.find((t) => t.name === 'calendar:create_event');
  assert.ok(!readNote?.matchedTerms.includes('remind'), 'a parameter name is not a matched term of the tool');
  assert.ok((readNote?.paramHits ?? 0) > 0 && (createEvent?.paramHits ?? 0) > 0, 'it is kept to break ties');
});

test('tools that score alike are ordered by how much of the request their parameter names have', () => {
  const powers: PowerDocument[] = [
    {
      name: 'clock',
      description: 'Clock utilities.',
      keywords: [],
      tools: [
        { name: 'alpha', description: 'Clock utility', parameters: ['format'] },
        { name: 'beta', description: 'Clock utility', parameters: ['timezone', 'format'] },
      ],
    },
  ];
  const resolver = new LexicalResolver();
  resolver.index(powers);
  const ranked = resolver.rankTools('clock in another timezone');
  assert.equal(ranked[0].score, ranked[1].score, 'the same text scores the same');
  assert.deepEqual(
    ranked.map((t) => t.name),
    ['clock:beta', 'clock:alpha'],
    'not by name: beta takes a timezone',
  );
});

test('real servers: "create a pull request" ranks create_pull_request above the review tool that takes a pull number', () => {
  const resolver = new LexicalResolver();
  resolver.index(realServers);
  const ranked = top(resolver, 'create a pull request from feature-x into main');
  assert.equal(ranked[0], 'github:create_pull_request', `tools: ${ranked.join(', ')}`);
});

test('real servers: "add two numbers 3 and 4" names the tool that sums two numbers first', () => {
  const resolver = new LexicalResolver();
  resolver.index(realServers);
  const ranked = top(resolver, 'add two numbers 3 and 4 together');
  assert.equal(ranked[0], 'everything:get-sum', `tools: ${ranked.join(', ')}`);
});
