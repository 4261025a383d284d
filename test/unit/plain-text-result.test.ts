import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { plainTextResult } from '../../server/upstream/plain-text-result.js';

/** Results as servers send them (parsed from JSON, as the lane gets them). */
const SHAPES: Record<string, unknown> = {
  'one text item': { content: [{ type: 'text', text: 'Echo: hi' }] },
  'several text items and isError': { content: [{ type: 'text', text: 'a' }, { type: 'text', text: '' }], isError: true },
  'isError false': { content: [{ type: 'text', text: 'ok' }], isError: false },
  'empty content': { content: [] },
  'no content (the schema fills in [])': {},
  'an item with annotations': { content: [{ type: 'text', text: 'x', annotations: { priority: 0.5 } }] },
  'an item with a field the schema strips': { content: [{ type: 'text', text: 'x', extra: 1 }] },
  'an item with _meta': { content: [{ type: 'text', text: 'x', _meta: { k: 1 } }] },
  'structured content': { content: [{ type: 'text', text: '{}' }], structuredContent: { n: 1 } },
  'a result _meta': { content: [{ type: 'text', text: 'x' }], _meta: { progressToken: 1 } },
  'a field of a newer protocol': { content: [{ type: 'text', text: 'x' }], later: true },
  'an image': { content: [{ type: 'image', data: 'aGk=', mimeType: 'image/png' }] },
  'text that is not a string': { content: [{ type: 'text', text: 5 }] },
  'isError that is not a boolean': { content: [{ type: 'text', text: 'x' }], isError: 'yes' },
  'content that is not a list': { content: 'x' },
  'an item that is null': { content: [null] },
  'a list': [],
  'null': null,
  'a string': 'x',
};

test('plainTextResult takes a text-only result as it is, and leaves every other shape to the SDK schema', () => {
  const taken: string[] = [];
  for (const [name, shape] of Object.entries(SHAPES)) {
    const value = structuredClone(shape);
    const plain = plainTextResult(value);
    if (plain === undefined) continue;
    taken.push(name);
    assert.equal(plain, value, `${name}: the same object, not a copy`);
    const parsed = CallToolResultSchema.safeParse(structuredClone(shape));
    assert.ok(parsed.success, `${name}: the schema accepts what plainTextResult takes`);
    assert.deepEqual(plain, parsed.data, `${name}: the schema would return it unchanged`);
  }
  assert.deepEqual(taken, ['one text item', 'several text items and isError', 'isError false', 'empty content']);
});
