/** Completion and hover in spell files come from the spell schema (server/powers/spell-schema.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spellSchema } from '../../server/powers/spell-schema.js';
import { completeSpell } from '../../server/spells/spell-completion.js';
import { fieldAt, keysAt } from '../../server/spells/spell-fields.js';
import { hoverSpell } from '../../server/spells/spell-hover.js';

/** The text with `|` marking the cursor, split into text and position. */
function cursor(marked: string): { text: string; position: { line: number; character: number } } {
  const at = marked.indexOf('|');
  const before = marked.slice(0, at).split('\n');
  return { text: marked.replace('|', ''), position: { line: before.length - 1, character: before.at(-1)!.length } };
}

test('the fields are read from the schema: top-level keys in schema order, server keys of both transports', () => {
  assert.deepEqual(
    keysAt([])!.map((field) => field.key),
    Object.keys(spellSchema.shape),
  );
  assert.deepEqual(
    keysAt(['server'])!.map((field) => field.key),
    ['transport', 'command', 'args', 'env', 'cwd', 'url', 'headers'],
  );
  assert.deepEqual(fieldAt(['server', 'transport'])!.values, ['stdio', 'http', 'sse']);
  assert.equal(keysAt(['hints']), undefined, 'tool names are free');
  assert.deepEqual(
    keysAt(['hints', 'any_tool'])!.map((field) => field.key),
    ['prerequisites', 'next_actions', 'error_hints', 'audit'],
  );
  assert.deepEqual(fieldAt(['annotations', 't', 'readOnlyHint'])!.values, ['true', 'false']);
  assert.equal(fieldAt(['name'])!.required, true);
  assert.equal(fieldAt(['steering'])!.required, false);
  assert.equal(fieldAt(['colour']), undefined);
});

test('completion offers the keys not yet written, with their documentation', () => {
  const { text, position } = cursor('name: x\nversion: 1.0.0\n|\n');
  const items = completeSpell(text, position);
  const labels = items.map((item) => item.label);
  assert.deepEqual(labels, ['description', 'keywords', 'steering', 'server', 'hints', 'annotations', 'cache', 'when']);
  const server = items.find((item) => item.label === 'server')!;
  assert.equal(server.insertText, 'server:\n  ');
  assert.match(server.documentation!, /stdio \(command\) or http \/ sse \(url\)/);
  assert.match(items.find((item) => item.label === 'description')!.detail!, /^required text/);
});

test('completion under server: and under a tool of hints: offers their keys', () => {
  const server = cursor('name: x\nserver:\n  command: npx\n  a|\n');
  assert.deepEqual(
    completeSpell(server.text, server.position).map((item) => item.label),
    ['transport', 'args', 'env', 'cwd', 'url', 'headers'],
  );
  const hints = cursor('name: x\nhints:\n  write_file:\n    |\n');
  assert.deepEqual(
    completeSpell(hints.text, hints.position).map((item) => item.label),
    ['prerequisites', 'next_actions', 'error_hints', 'audit'],
  );
});

test('completion of values: transport, flags; tool names under hints and in prerequisites', () => {
  const transport = cursor('server:\n  transport: |\n');
  assert.deepEqual(
    completeSpell(transport.text, transport.position).map((item) => item.label),
    ['stdio', 'http', 'sse'],
  );
  const flag = cursor('annotations:\n  read_file:\n    readOnlyHint: t|\n');
  assert.deepEqual(
    completeSpell(flag.text, flag.position).map((item) => item.label),
    ['true', 'false'],
  );
  const tools = ['read_file', 'write_file', 'list_directory'];
  const toolKey = cursor('hints:\n  read_file:\n    audit: true\n  |\n');
  assert.deepEqual(
    completeSpell(toolKey.text, toolKey.position, tools).map((item) => item.label),
    ['write_file', 'list_directory'],
  );
  const prerequisite = cursor('hints:\n  write_file:\n    prerequisites:\n      - |\n');
  assert.deepEqual(
    completeSpell(prerequisite.text, prerequisite.position, tools).map((item) => item.label),
    tools,
  );
  const free = cursor('name: |\n');
  assert.deepEqual(completeSpell(free.text, free.position), [], 'a free text value: nothing to offer');
});

test('hover shows the field under the cursor with its documentation and values', () => {
  const text =
    'name: x\nkeywords: [a, b, c]\nserver:\n  transport: http\n  url: ' +
    'https://example.com/mcp\nhints:\n  write_file:\n    prerequisites: [read_file]\n';
  assert.match(hoverSpell(text, { line: 1, character: 3 })!, /^\*\*keywords\*\* \(required\)\n\n3 to 20 words/);
  assert.match(hoverSpell(text, { line: 1, character: 12 })!, /\*\*keywords\*\*/, 'over a list entry: the list');
  const transport = hoverSpell(text, { line: 3, character: 4 })!;
  assert.match(transport, /\*\*server\.transport\*\*/);
  assert.match(transport, /Values: `stdio`, `http`, `sse`/);
  assert.match(hoverSpell(text, { line: 6, character: 4 })!, /hints of this power's tool `write_file`/);
  assert.match(hoverSpell(text, { line: 7, character: 6 })!, /Tools of this power the agent should call first/);
  assert.equal(hoverSpell('# a comment\n', { line: 0, character: 3 }), undefined);
});
