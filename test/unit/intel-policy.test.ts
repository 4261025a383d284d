import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { summarizeLocally } from '../../server/intel/local/local-summarizer.js';
import { repoRoot } from '../helpers/temp.js';
import { setLogSink } from '../../server/log.js';
import { expandIdentifiers } from '../../server/intel/local/expand.js';
import { decide, isReadRequest } from '../../server/intel/summary-policy.js';
import { isVsCodeClient, samplingAllowed } from '../../server/intel/summarizers/sampling-gate.js';
import { intelSettingsSchema } from '../../server/config/intel-settings.js';
import { bigText, context, harness, metaOf, stageRunner, summaryOf, textResult } from './intel-helpers.js';

before(() => setLogSink(() => undefined));
after(() => setLogSink((line) => process.stderr.write(line + '\n')));

test('a read of one named file or page is "asked to read"; listings, searches, graphs and dumps are bulk', () => {
  for (const [tool, args] of [
    ['read_text_file', { path: '/p/a.ts' }],
    ['read_file', { path: 'a.md' }],
    ['read_multiple_files', { paths: ['a', 'b'] }],
    ['get_file_contents', { owner: 'o', repo: 'r', path: 'src/x.ts' }],
    ['fetch', { url: 'http://127.0.0.1/page' }],
    ['browser_navigate', { url: 'http://127.0.0.1/' }],
  ] as const)
    assert.equal(isReadRequest(tool, args), true, tool);
  for (const [tool, args] of [
    ['read_graph', {}],
    ['get-env', {}],
    ['list_directory', { path: '/p' }],
    ['directory_tree', { path: '/p' }],
    ['search_files', { path: '/p', pattern: '*.ts' }],
    ['get-resource-links', { count: 3 }],
    ['get_file_info', { path: '/p/a' }],
    ['read_logs', { path: '/var/log/x' }],
  ] as const)
    assert.equal(isReadRequest(tool, args), false, tool);
  const settings = intelSettingsSchema.parse({});
  assert.deepEqual(decide(settings, true, 8_000), { summarize: false, reason: 'asked to read' });
  assert.deepEqual(decide(settings, true, 8_001), { summarize: true, reason: 'longer than the read budget' });
  assert.deepEqual(decide(settings, false, 511), { summarize: false, reason: 'small' });
  assert.deepEqual(decide(settings, false, 512), { summarize: true, reason: 'bulk' });
});

test('a 17 KB source file the agent reads comes back whole; the same bytes from a listing tool are summarized', async () => {
  const h = await harness();
  try {
    const lines: string[] = [];
    for (let i = 0; lines.join('\n').length < 17 * 1024; i++)
      lines.push(
        `export function handler${i}(input: string): number {`,
        `  return input.length * ${i}; // keeps record ${i}`,
        '}',
        '',
      );
    const source = lines.join('\n');
    const { run } = stageRunner(h);
    const whole = textResult(source);
    assert.equal(await run(context(h, { tool: 'read_text_file', args: { path: '/p/src/handlers.ts' } }), whole), whole);
    const bulk = await run(
      context(h, { tool: 'search_files', args: { path: '/p', pattern: '*.ts' } }),
      textResult(source),
    );
    assert.ok(summaryOf(bulk).keyFindings.length >= 3);
    // Past the read budget a file is summarized too, and kept whole as an artifact.
    h.settings.readWholeTokens = 1_000;
    const long = await run(
      context(h, { tool: 'read_text_file', args: { path: '/p/src/handlers.ts', n: 2 } }),
      textResult(source),
    );
    assert.match(metaOf(long).artifactId, /^art_/);
  } finally {
    await h.close();
  }
});

test("a 300-row report's summary names every failed row, compactly (JSON and CSV)", async () => {
  const h = await harness();
  try {
    const failed = new Set<number>();
    for (let i = 0; failed.size < 43; i++) failed.add(1000 + ((i * 97 + 13) % 300));
    const rows = Array.from({ length: 300 }, (_, i) => ({
      id: 1000 + i,
      name: `check-${i}`,
      status: failed.has(1000 + i) ? 'failed' : 'passed',
      duration_ms: 20 + ((i * 37) % 400),
    }));
    const { run } = stageRunner(h);
    const json = summaryOf(
      await run(context(h, { tool: 'list_checks', args: { run: 1 } }), textResult(JSON.stringify(rows))),
    );
    const named = expandIdentifiers(json.identifiers);
    for (const id of failed)
      assert.ok(named.has(String(id)), `failed row ${id} named: ${JSON.stringify(json.identifiers)}`);
    const label = Object.keys(json.identifiers).find((k) => k.startsWith('status=failed'));
    assert.ok(label, JSON.stringify(json.identifiers));
    for (const id of expandIdentifiers({ [label]: json.identifiers[label] }))
      assert.ok(failed.has(Number(id)), `only failed rows under ${label}: ${id}`);

    const csv = [
      'id,name,status,duration_ms',
      ...rows.map((r) => `${r.id},${r.name},${r.status},${r.duration_ms}`),
    ].join('\n');
    const table = summaryOf(await run(context(h, { tool: 'export_report', args: { run: 2 } }), textResult(csv)));
    const inTable = expandIdentifiers(table.identifiers);
    for (const id of failed)
      assert.ok(inTable.has(String(id)), `CSV: failed row ${id} named: ${JSON.stringify(table.identifiers)}`);
  } finally {
    await h.close();
  }
});

test(
  'summarizers never block: a model that does not answer (a consent dialog left open) gives way to the ' +
    'local summarizer within the time budget',
  { timeout: 20_000 },
  async () => {
    const h = await harness({ summarizers: { timeBudgetMs: 300 } });
    try {
      let asked = 0;
      h.intel.setLanguageModel(() => {
        asked++;
        return new Promise<string>(() => undefined);
      });
      const sample = () => new Promise<never>(() => undefined);
      const { run } = stageRunner(h);
      const result = await run(context(h, { sample }), textResult(bigText(8_000)));
      assert.equal(asked, 1);
      assert.equal(metaOf(result).summarizer, 'local');
      const attempts = metaOf(result).attempts as Array<{ summarizer: string; outcome: string; detail?: string }>;
      assert.deepEqual(
        attempts.map((a) => `${a.summarizer}:${a.outcome}`),
        ['vscodeLm:failed', 'sampling:failed', 'local:used'],
      );
      assert.match(attempts[1]!.detail!, /time budget is spent/);
    } finally {
      await h.close();
    }
  },
);

test('MCP sampling is not used under VS Code unless the user turns it on', () => {
  const settings = intelSettingsSchema.parse({}).summarizers;
  assert.equal(isVsCodeClient('Visual Studio Code'), true);
  assert.equal(isVsCodeClient('Visual Studio Code - Insiders'), true);
  assert.equal(isVsCodeClient('code-server'), true);
  assert.equal(isVsCodeClient('claude-ai'), false);
  assert.equal(isVsCodeClient(undefined), false);
  assert.equal(samplingAllowed('Visual Studio Code', settings), false);
  assert.equal(samplingAllowed('Visual Studio Code', { ...settings, samplingInVsCode: true }), true);
  assert.equal(samplingAllowed('mcp-inspector', settings), true);
});

test("a log without levels (dpkg's, captured) names the subject of every rare event: each package installed or upgraded", () => {
  const text = fs.readFileSync(
    path.join(repoRoot, 'test', 'fixtures', 'results', 'captured', 'fs-dpkg-log-tail.log'),
    'utf8',
  );
  const lines = text.split('\n').filter((line) => line.trim());
  const installed = [
    ...new Set(lines.filter((line) => line.split(' ')[2] === 'install').map((line) => line.split(' ')[3]!)),
  ];
  assert.ok(installed.length > 0, 'the captured log has installs');
  const summary = summarizeLocally({ text });
  assert.match(summary.keyFindings.join(' '), /Events: status \d+/);
  const named = expandIdentifiers(summary.identifiers);
  for (const pkg of installed) assert.ok(named.has(pkg), `${pkg} named: ${JSON.stringify(summary.identifiers)}`);
});
