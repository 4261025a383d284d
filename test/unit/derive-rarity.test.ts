import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Tool } from '../../server/util/mcp-types.js';
import { catalogRarityOf } from '../../server/gateway/power-documents.js';
import { catalogRarity, deriveFromTools } from '../../server/powers/derive.js';
import type { PowerDefinition } from '../../server/powers/types.js';

const api = (name: string, what: string) => ({
  name,
  description: `${what} with the API, or an API error response when the API request fails.`,
});
const notes = { name: 'notes', description: '' };
const noteTools = [
  api('create_note', 'Create a note in the notebook'),
  api('search_notes', 'Search the notebook for notes'),
  api('delete_note', 'Delete a note'),
];
const others = [
  [api('get_weather', 'Forecast for a city'), api('get_alerts', 'Weather alerts for a region')],
  [api('list_invoices', 'List invoices'), api('pay_invoice', 'Pay an invoice')],
  [api('send_mail', 'Send a mail'), api('list_mail', 'List the inbox')],
];

test('imported descriptions: words every server says ("api", "error") weigh less than what only this one does', () => {
  const alone = deriveFromTools(notes, noteTools);
  assert.ok(
    alone.keywords.indexOf('api') < alone.keywords.indexOf('notebook'),
    `counted alone, the common words lead: ${alone.keywords.join(' ')}`,
  );
  const rarity = catalogRarity([{ tools: noteTools }, ...others.map((tools) => ({ tools }))]);
  const { description, keywords } = deriveFromTools(notes, noteTools, {}, rarity);
  assert.ok(keywords.indexOf('notebook') < keywords.indexOf('api'), keywords.join(' '));
  assert.match(description, /^notes: 3 tools about note, .*notebook/);
  assert.doesNotMatch(description, /\bapi\b|\berror\b/);
});

test("a server's instructions' first sentence counts among its words", () => {
  const { keywords } = deriveFromTools(notes, [{ name: 'ping' }], {
    instructions: 'Keep journal entries for the user. Other guidance follows.',
  });
  assert.ok(keywords.includes('journal'), keywords.join(' '));
  assert.ok(!keywords.includes('guidance'), keywords.join(' '));
});

test("the catalog's rarity is measured again when a power's tools change, and reused while nothing did", () => {
  const powers = [
    { name: 'notes', serverWords: {} },
    { name: 'mail', serverWords: {} },
  ] as unknown as PowerDefinition[];
  const listed = new Map<string, Tool[]>([
    ['notes', [{ name: 'create_note', description: 'Create a note.', inputSchema: { type: 'object' } }]],
    ['mail', [{ name: 'send_mail', description: 'Send a mail.', inputSchema: { type: 'object' } }]],
  ]);
  const first = catalogRarityOf(powers, (name) => listed.get(name) ?? []);
  assert.equal(
    catalogRarityOf(powers, (name) => listed.get(name) ?? []),
    first,
  );
  listed.set('mail', [{ name: 'send_note', description: 'Send a note by mail.', inputSchema: { type: 'object' } }]);
  const next = catalogRarityOf(powers, (name) => listed.get(name) ?? []);
  assert.notEqual(next, first);
  assert.ok(next('note') < first('note'), 'a word both servers say now is less rare');
});

test("imported descriptions: a tool's first sentence says what it does; its further prose (errors, how to call it) counts far less", () => {
  // Each tool's prose repeats what only this server's API says when it fails: rare in the catalog, yet not what the server does.
  const prose = (name: string, what: string) => ({
    name,
    description: `${what}. Error responses: 400 Bad request, 401 Unauthorized, 404 Not found.`,
  });
  const pages = [
    prose('post_page', 'Create a page in the workspace'),
    prose('retrieve_page', 'Retrieve a page of the workspace'),
    prose('append_block', 'Append a block to a page'),
  ];
  const rarity = catalogRarity([{ tools: pages }, ...others.map((tools) => ({ tools }))]);
  const { description, keywords } = deriveFromTools({ name: 'wiki', description: '' }, pages, {}, rarity);
  assert.ok(keywords.indexOf('workspace') < keywords.indexOf('bad'), keywords.join(' '));
  assert.doesNotMatch(description, /\b(bad|responses|unauthorized)\b/);
  assert.match(description, /\bpage\b/);
});
