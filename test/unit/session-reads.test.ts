import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SessionReadLedger } from '../../server/intel/accounting/session-reads.js';
import { countTokens } from '../../server/intel/tokens/tokenizer-core.js';
import { InlineTokenizer } from '../../server/intel/tokens/tokenizer.js';

test('a result delivered as is counts its tokens as both raw and delivered; a summarized one counts each', async () => {
  const reads = new SessionReadLedger(new InlineTokenizer(), () => 1_000);
  const raw: CallToolResult = { content: [{ type: 'text', text: 'The quick brown fox jumps over the lazy dog. '.repeat(20) }] };
  const summary: CallToolResult = { content: [{ type: 'text', text: 'A fox jumps over a dog, twenty times.' }] };
  reads.delivered('s1', raw, raw);
  reads.delivered('s2', raw, summary);
  const [first, second] = (await reads.all()).sort((a, b) => a.session.localeCompare(b.session));
  const rawTokens = countTokens((raw.content[0] as { text: string }).text);
  assert.deepEqual([first!.results, first!.rawTokens, first!.deliveredTokens], [1, rawTokens, rawTokens]);
  assert.deepEqual([second!.results, second!.rawTokens, second!.deliveredTokens], [1, rawTokens, countTokens('A fox jumps over a dog, twenty times.')]);
});

test("a summarized result whose raw tokens are already known (an estimate for megabytes) counts only what was delivered", async () => {
  const reads = new SessionReadLedger(new InlineTokenizer(), () => 1_000);
  const raw: CallToolResult = { content: [{ type: 'text', text: 'x'.repeat(100) }] };
  const summary: CallToolResult = { content: [{ type: 'text', text: 'A line of x.' }] };
  reads.delivered('big', raw, summary, 2_500_000);
  const [row] = await reads.all();
  assert.deepEqual([row!.results, row!.rawTokens, row!.deliveredTokens], [1, 2_500_000, countTokens('A line of x.')]);
});
