import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SessionReadLedger } from '../../server/intel/accounting/session-reads.js';
import { countTokens } from '../../server/intel/tokens/tokenizer-core.js';
import { InlineTokenizer } from '../../server/intel/tokens/tokenizer.js';

test('a result delivered as is counts its tokens as both raw and delivered; a summarized one counts each', async () => {
  const reads = new SessionReadLedger(new InlineTokenizer(), () => 1_000);
  const raw: CallToolResult = {
    content: [{ type: 'text', text: 'The quick brown fox jumps over the lazy dog. '.repeat(20) }],
  };
  const summary: CallToolResult = { content: [{ type: 'text', text: 'A fox jumps over a dog, twenty times.' }] };
  reads.delivered('s1', raw, raw);
  reads.delivered('s2', raw, summary);
  const [first, second] = (await reads.all()).sort((a, b) => a.session.localeCompare(b.session));
  const rawTokens = countTokens((raw.content[0] as { text: string }).text);
  assert.deepEqual([first!.results, first!.rawTokens, first!.deliveredTokens], [1, rawTokens, rawTokens]);
  assert.deepEqual(
    [second!.results, second!.rawTokens, second!.deliveredTokens],
    [1, rawTokens, countTokens('A fox jumps over a dog, twenty times.')],
  );
});

test('a summarized result whose raw tokens are already known (an estimate for megabytes) counts only what was delivered', async () => {
  const reads = new SessionReadLedger(new InlineTokenizer(), () => 1_000);
  const raw: CallToolResult = { content: [{ type: 'text', text: 'x'.repeat(100) }] };
  const summary: CallToolResult = { content: [{ type: 'text', text: 'A line of x.' }] };
  reads.delivered('big', raw, summary, 2_500_000);
  const [row] = await reads.all();
  assert.deepEqual([row!.results, row!.rawTokens, row!.deliveredTokens], [1, 2_500_000, countTokens('A line of x.')]);
});

test('a tool list served again is not counted again; each call still carries the list served before it', async () => {
  const inner = new InlineTokenizer();
  const counted: string[] = [];
  const tokenizer = new (class extends InlineTokenizer {
    override count(texts: string[]) {
      counted.push(...texts);
      return inner.count(texts);
    }
  })();
  const reads = new SessionReadLedger(tokenizer, () => 1_000);
  const small = [{ name: 'a', description: 'Reads a thing.', inputSchema: { type: 'object' as const } }];
  const large = [
    ...small,
    {
      name: 'b',
      description: 'Writes a thing, with a long explanation. '.repeat(20),
      inputSchema: { type: 'object' as const },
    },
  ];
  const answer: CallToolResult = { content: [{ type: 'text', text: 'done' }] };
  for (const tools of [small, large, small, large]) {
    reads.listed('s', tools);
    reads.answered('s', answer);
    if (tools === large) await reads.all(); // a list is kept once counted
  }
  const [row] = await reads.all();
  const [smallTokens, largeTokens] = await inner.count([JSON.stringify(small), JSON.stringify(large)]);
  assert.equal(counted.filter((text) => text.startsWith('[')).length, 2, 'each list counted once');
  assert.equal(row!.toolsLists, 4);
  assert.equal(
    row!.requestListTokens,
    2 * smallTokens! + 2 * largeTokens!,
    'every call carried the list served just before it',
  );
  assert.equal(row!.currentListTokens, largeTokens);
});
