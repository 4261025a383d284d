/** The two text edits of routing: taking an entry out changes nothing else, and putting its own text back restores the bytes. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reinsertEntry, removeEntry } from '../../client/mcp-json-edit.js';
import { parseJsonc } from '../../shared/jsonc.js';

const LAYOUTS: Record<string, string> = {
  pretty:
    '{\n  "servers": {\n    "a": { "command": "x" },\n    "b": { "command": "y" },\n    "c": { "command": "z" }\n  }\n}\n',
  comments:
    '{\n  // top\n  "servers": {\n    // about a\n    "a": { "command": ' +
    '"x" }, // after a\n    /* about b */\n    "b": {\n      "command": ' +
    '"y" // inside b\n    },\n    // about c\n    "c": { "command": "z" }\n  },\n  "inputs": []\n}\n',
  trailing:
    '{\n  "servers": {\n    "a": { "command": "x", },\n    "b": { "command": "y", },\n    "c": { "command": "z", },\n  },\n}\n',
  crlf:
    '{\r\n  "servers": {\r\n    "a": { "command": "x" },\r\n    "b": { "command": "y" },\r\n    "c": ' +
    '{ "command": "z" }\r\n  }\r\n}\r\n',
  bom: '\uFEFF{\n\t"servers": {\n\t\t"a": {"command": "x"},\n\t\t"b": {"command": "y"},\n\t\t"c": {"command": "z"}\n\t}\n}',
  oneLine: '{"servers":{"a":{"command":"x"},"b":{"command":"y"},"c":{"command":"z"}}}',
  claude:
    '{\n  "mcpServers": {\n    "a": { "command": "x" },\n    "b": { "command": "y" },\n    "c": { "command": "z" }\n  }\n}\n',
};

test('each entry of each layout: only it leaves, and its own text put back gives the same bytes', () => {
  for (const [layout, text] of Object.entries(LAYOUTS)) {
    for (const key of ['a', 'b', 'c']) {
      const removed = removeEntry(text, key);
      assert.ok(removed.ok, `${layout}/${key}`);
      const servers = (parseJsonc(removed.text.replace(/^\uFEFF/, '')) as Record<string, Record<string, unknown>>)[
        layout === 'claude' ? 'mcpServers' : 'servers'
      ]!;
      assert.deepEqual(
        Object.keys(servers),
        ['a', 'b', 'c'].filter((k) => k !== key),
        `${layout}/${key}: the others, in order`,
      );
      for (const comment of text.match(/\/\/ about \w|\/\* about \w \*\/|\/\/ top/g) ?? [])
        if (!comment.endsWith(key) && !comment.endsWith(`${key} */`))
          assert.ok(removed.text.includes(comment), `${layout}/${key}: "${comment}" kept`);
      const back = reinsertEntry(removed.text, key, removed.removed);
      assert.ok(back.ok);
      assert.equal(back.text, text, `${layout}/${key}: byte for byte`);
    }
  }
});

test("into a file changed around it, the entry goes back after its predecessor, in the file's own style", () => {
  const removed = removeEntry(LAYOUTS.crlf!, 'b');
  assert.ok(removed.ok);
  const edited = removed.text.replace(
    '"c": { "command": "z" }',
    '"c": { "command": "z" },\r\n    "d": { "command": "w" }',
  );
  const back = reinsertEntry(edited, 'b', removed.removed);
  assert.ok(back.ok);
  assert.equal(
    back.text,
    LAYOUTS.crlf!.replace('"c": { "command": "z" }', '"c": { "command": "z" },\r\n    "d": { "command": "w" }'),
  );
  const gone = reinsertEntry(removed.text.replace('    "a": { "command": "x" },\r\n', ''), 'b', removed.removed);
  assert.ok(gone.ok);
  assert.deepEqual(
    Object.keys((parseJsonc(gone.text) as { servers: object }).servers),
    ['b', 'c'],
    'its predecessor gone: first',
  );
  assert.deepEqual(reinsertEntry(LAYOUTS.crlf!, 'b', removed.removed), {
    ok: false,
    message: 'the file has a server "b" already',
  });
  assert.deepEqual(removeEntry('{"inputs": []}', 'a'), { ok: false, message: 'the file has no "servers" object' });
});
