import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CreateMessageResult, Tool } from '../../server/util/mcp-types.js';
import type { SampleFn } from '../../server/calls/pipeline.js';
import { setLogSink } from '../../server/log.js';
import { headWithin } from '../../server/intel/tokens/tokenizer-core.js';
import {
  allText,
  bigText,
  context,
  harness,
  metaOf,
  stageRunner,
  summaryOf,
  textResult,
  WRITES,
} from './intel-helpers.js';

before(() => setLogSink(() => undefined));
after(() => setLogSink((line) => process.stderr.write(line + '\n')));

/** bigText cut to exactly `tokens` tokens. */
function textOfTokens(tokens: number): string {
  return headWithin(bigText(tokens * 8), tokens).text;
}

const reply = (text: string): CreateMessageResult => ({
  model: 'scripted',
  role: 'assistant',
  content: { type: 'text', text },
});

test('threshold by tokens (o200k_base): one token under passes through unchanged; at and over it the agent gets a summary', async () => {
  const h = await harness();
  try {
    const { run } = stageRunner(h);
    const threshold = h.settings.summaryThresholdTokens;
    const under = textResult(textOfTokens(threshold - 1));
    assert.equal(await run(context(h), under), under, 'one token under: the very same result');
    for (const tokens of [threshold, threshold + 1]) {
      const text = textOfTokens(tokens);
      const size = Buffer.byteLength(text);
      const result = await run(context(h, { args: { n: tokens } }), textResult(text));
      const summary = summaryOf(result);
      assert.ok(summary.keyFindings.length >= 3 && summary.keyFindings.length <= 5, JSON.stringify(summary));
      assert.ok(Array.isArray(summary.actionableInsights));
      assert.equal(summary.metadata.power, 'files');
      assert.equal(summary.metadata.tool, 'list');
      assert.match(summary.metadata.timestamp, /^2026-01-15T12:00:00/);
      assert.match(summary.metadata.artifactId, /^art_[0-9a-f]{12}$/);
      assert.equal(metaOf(result).rawBytes, size);
      assert.match(
        allText(result),
        new RegExp(`read_artifact\\(\\{"id":"${summary.metadata.artifactId}"\\}\\)`),
        'says how to get the rest',
      );
    }
    // Tokens, not bytes: 3 KB of one repeated letter is a few hundred tokens and passes.
    const dense = textResult('x'.repeat(3_000));
    assert.equal(await run(context(h, { args: { n: 'dense' } }), dense), dense);
  } finally {
    await h.close();
  }
});

test('pass-through: errors, images, audio, blob resources, a power turned off, intel turned off', async () => {
  const h = await harness({ disabledPowers: ['quiet'] });
  try {
    const { run } = stageRunner(h);
    const big = bigText(5000);
    const cases = [
      { ...textResult(big), isError: true },
      {
        content: [
          { type: 'text' as const, text: big },
          { type: 'image' as const, data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        ],
      },
      {
        content: [
          { type: 'audio' as const, data: 'UklGRg==', mimeType: 'audio/wav' },
          { type: 'text' as const, text: big },
        ],
      },
      {
        content: [
          { type: 'resource' as const, resource: { uri: 'file:///x.bin', blob: Buffer.from(big).toString('base64') } },
        ],
      },
    ];
    for (const result of cases) assert.equal(await run(context(h), result), result);
    const off = textResult(big);
    assert.equal(await run(context(h, { power: 'quiet' }), off), off);
    h.settings.enabled = false;
    assert.equal(await run(context(h, { args: { other: 1 } }), off), off);
  } finally {
    await h.close();
  }
});

test(
  'sampling (scripted model), with no VS Code language model: ' +
    'its findings are used and the local identifiers are attached',
  async () => {
    const h = await harness();
    try {
      const asked: string[] = [];
      const sample: SampleFn = async (params) => {
        const content = params.messages[0]!.content;
        asked.push(Array.isArray(content) ? '' : content.type === 'text' ? content.text : '');
        return reply(
          '```json\n{"keyFindings":["The alpha inventory lists items.","Items are stored under ' +
            '/srv/alpha.","Every record is meant for review."],"actionableInsights":["Open item-3 first."]}\n```',
        );
      };
      const { run } = stageRunner(h);
      const result = await run(context(h, { sample }), textResult(bigText(6000)));
      const summary = summaryOf(result);
      assert.deepEqual(summary.keyFindings, [
        'The alpha inventory lists items.',
        'Items are stored under /srv/alpha.',
        'Every record is meant for review.',
      ]);
      assert.deepEqual(summary.actionableInsights, ['Open item-3 first.']);
      assert.equal(metaOf(result).summarizer, 'sampling');
      assert.ok(summary.identifiers?.paths, 'identifiers come from the local summarizer');
      assert.match(asked[0]!, /Tool: files:list/);
      assert.match(asked[0]!, /Record alpha-0/);
    } finally {
      await h.close();
    }
  },
);

test('fallbacks: bad JSON, a wrong shape, a timeout and a failing request each fall back to the local summarizer', async () => {
  const h = await harness({ summarizers: { sampling: { timeoutMs: 100 } } });
  try {
    const { run } = stageRunner(h);
    const samplers: Array<[string, SampleFn, RegExp]> = [
      ['bad JSON', async () => reply('Sure! Here is a summary: the file lists records.'), /no JSON object/],
      ['broken JSON', async () => reply('{"keyFindings": ["a", "b", "c"'), /no JSON object|not valid JSON/],
      [
        'wrong shape',
        async () => reply('{"keyFindings":["only one"],"actionableInsights":[]}'),
        /expected shape.*keyFindings/,
      ],
      ['timeout', () => new Promise<CreateMessageResult>(() => undefined), /no reply within 100 ms/],
      ['refused', async () => Promise.reject(new Error('User rejected sampling request')), /User rejected/],
    ];
    for (const [name, sample, detail] of samplers) {
      const result = await run(
        context(h, { sample, args: { case: name } }),
        textResult(bigText(4000, name.replace(/\W/g, ''))),
      );
      const meta = metaOf(result);
      assert.equal(meta.summarizer, 'local', name);
      // VS Code's language model comes first; without the extension's hook it is not available.
      assert.equal(meta.attempts[0].summarizer, 'vscodeLm');
      assert.equal(meta.attempts[0].outcome, 'not available', 'no VS Code LM hook: not available');
      assert.equal(meta.attempts[1].summarizer, 'sampling');
      assert.equal(meta.attempts[1].outcome, 'failed', name);
      assert.match(meta.attempts[1].detail, detail, name);
      assert.ok(summaryOf(result).keyFindings.length >= 3, name);
      assert.notEqual(result.isError, true, 'never an error to the user');
    }
  } finally {
    await h.close();
  }
});

test('VS Code LM hook: unset is not available; set, it is used; when it refuses, local takes over', async () => {
  const h = await harness({ summarizers: { order: ['vscodeLm', 'local'] } });
  try {
    const { run } = stageRunner(h);
    let result = await run(context(h, { args: { i: 1 } }), textResult(bigText(3000)));
    assert.deepEqual(
      metaOf(result).attempts.map((a: { outcome: string }) => a.outcome),
      ['not available', 'used'],
    );
    assert.equal(h.intel.hasLanguageModel(), false);

    const prompts: string[] = [];
    h.intel.setLanguageModel(async (prompt) => {
      prompts.push(prompt);
      return '{"keyFindings":["one","two","three"],"actionableInsights":["next"]}';
    });
    result = await run(context(h, { args: { i: 2 } }), textResult(`${bigText(3000)}\nsecond result`));
    assert.equal(metaOf(result).summarizer, 'vscodeLm');
    assert.deepEqual(summaryOf(result).keyFindings, ['one', 'two', 'three']);
    assert.match(prompts[0]!, /Reply with one JSON object/);

    h.intel.setLanguageModel(async () => {
      throw new Error('The user did not consent to the language model request');
    });
    result = await run(context(h, { args: { i: 3 } }), textResult(`${bigText(3000)}\nthird result`));
    assert.equal(metaOf(result).summarizer, 'local');
    assert.match(metaOf(result).attempts[0].detail, /did not consent/);
  } finally {
    await h.close();
  }
});

test('when every summarizer fails or is off, the raw result goes through', async () => {
  const h = await harness({ summarizers: { order: ['sampling'] } });
  try {
    const { run } = stageRunner(h);
    const raw = textResult(bigText(4000));
    assert.equal(await run(context(h, { sample: async () => reply('not json') }), raw), raw);
    h.settings.summarizers = { ...h.settings.summarizers, order: ['local'], local: { enabled: false } };
    assert.equal(await run(context(h, { args: { again: true } }), raw), raw);
  } finally {
    await h.close();
  }
});

test(
  'output schemas: structured content still validates (largest text replaced by the summary); ' +
    'when it cannot, raw goes through',
  async () => {
    const h = await harness();
    try {
      const fsTool: Tool = {
        name: 'read',
        inputSchema: { type: 'object' },
        outputSchema: { type: 'object', properties: { content: { type: 'string' } }, required: ['content'] },
      };
      const text = bigText(5000);
      const result = await stageRunner(h, fsTool).run(context(h), {
        content: [{ type: 'text', text }],
        structuredContent: { content: text },
      });
      const structured = result.structuredContent as { content: string };
      assert.equal(typeof structured.content, 'string');
      assert.ok(structured.content.length < text.length / 2, 'the structured copy is summarized too');
      assert.match(structured.content, /keyFindings/);

      const strict: Tool = {
        name: 'list',
        inputSchema: { type: 'object' },
        outputSchema: { type: 'object', properties: { items: { type: 'array', minItems: 10 } }, required: ['items'] },
      };
      const items = Array.from({ length: 40 }, (_, i) => ({ id: i, name: `item ${i}`, note: 'n'.repeat(80) }));
      const raw = { content: [{ type: 'text' as const, text: JSON.stringify(items) }], structuredContent: { items } };
      assert.equal(
        await stageRunner(h, strict).run(context(h, { tool: 'list' }), raw),
        raw,
        'a summary cannot satisfy minItems: 10',
      );

      const noSchema = await stageRunner(h).run(context(h, { tool: 'other' }), raw);
      assert.deepEqual(
        Object.keys(noSchema.structuredContent ?? {}).sort(),
        ['actionableInsights', 'identifiers', 'keyFindings', 'metadata'],
        'no schema: the summary is the structured content',
      );
    } finally {
      await h.close();
    }
  },
);

test('token accounting: raw vs delivered per result, per day and per power, and the tools/list comparison', async () => {
  const tools = (n: number, prefix: string): Tool[] =>
    Array.from({ length: n }, (_, i) => ({
      name: `${prefix}_${i}`,
      description: `Does thing ${i} with a long description `.repeat(4),
      inputSchema: { type: 'object', properties: { a: { type: 'string' } } },
    }));
  const h = await harness(
    {},
    {
      toolLists: () => ({
        gateway: tools(3, 'gw'),
        powers: [
          { power: 'files', tools: tools(20, 'f'), listed: true },
          { power: 'mail', tools: tools(15, 'm'), listed: true },
          { power: 'new', tools: [], listed: false },
        ],
      }),
    },
  );
  try {
    const { run } = stageRunner(h);
    await run(context(h), textResult(bigText(20_000)));
    await run(
      context(h, { power: 'mail', tool: 'list', annotations: WRITES }),
      textResult(
        JSON.stringify(
          Array.from({ length: 300 }, (_, i) => ({ id: i, subject: `Subject ${i}`, from: `p${i % 9}@example.com` })),
        ),
      ),
    );
    const report = await h.intel.tokenReport();
    assert.equal(report.tokenizer, 'o200k_base');
    assert.equal(report.summarized.results, 2);
    assert.ok(report.summarized.rawTokens > report.summarized.deliveredTokens * 4, JSON.stringify(report.summarized));
    assert.equal(report.summarized.savedTokens, report.summarized.rawTokens - report.summarized.deliveredTokens);
    assert.deepEqual(
      report.byDay.map((d) => d.day),
      ['2026-01-15'],
    );
    assert.deepEqual(report.byPower.map((p) => p.power).sort(), ['files', 'mail']);
    assert.deepEqual(
      report.cache,
      { hits: 0, misses: 1, similar: 0, hitRate: 0 },
      'the read-only call missed; the write is not cacheable',
    );
    assert.equal(report.artifacts.count, 2);
    assert.equal(report.toolsList.gateway.tools, 3);
    assert.equal(report.toolsList.configured.tools, 35);
    assert.equal(report.toolsList.configured.powers, 3);
    assert.equal(report.toolsList.configured.unlisted, 1);
    assert.ok(report.toolsList.savedTokens > 0 && report.toolsList.reduction > 0.8, JSON.stringify(report.toolsList));
  } finally {
    await h.close();
  }
});
