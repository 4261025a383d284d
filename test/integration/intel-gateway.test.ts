import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { getEncoding } from 'js-tiktoken';
import { connectStdio, gatewayEnv, payload, textOf, waitFor } from '../helpers/gateway-process.js';
import { cliPath, repoRoot, tempDir } from '../helpers/temp.js';

/**
 * A session that reads a large directory and a large file through a real gateway with the demo
 * powers: what the agent sees (summaries), what it can page (read_artifact,
 * get_artifact_context), what the cache and the token accounting say.
 */
let home: { dir: string; cleanup: () => void };
let env: Record<string, string>;
let project: string;
let session: Awaited<ReturnType<typeof connectStdio>>;
const encoding = getEncoding('o200k_base');

function bigMarkdown(): string {
  const parts = ['# Operations handbook', ''];
  for (let s = 0; s < 40; s++) {
    parts.push(`## Runbook ${s}: service-${s}`, '');
    for (let p = 0; p < 6; p++)
      parts.push(
        `Step ${p} for service-${s}: check the dashboard at https://ops.example.com/service-${s}/panel-${p} ` +
          `and restart the worker if the queue is stuck for more than ${p + 2} minutes.`,
      );
    parts.push('');
  }
  return parts.join('\n');
}

before(async () => {
  home = tempDir();
  const data = path.join(home.dir, 'data');
  project = path.join(data, 'demo-project');
  // The demo project is copied into the data dir on first start; prepare a bigger one there first.
  fs.cpSync(path.join(repoRoot, 'server', 'demo', 'project'), project, { recursive: true });
  for (let m = 0; m < 8; m++) {
    const dir = path.join(project, 'src', `module-${m}`);
    fs.mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 25; f++)
      fs.writeFileSync(path.join(dir, `component-${f}.ts`), `export const value${f} = ${f};\n`);
  }
  fs.writeFileSync(path.join(project, 'docs', 'handbook.md'), bigMarkdown());
  env = gatewayEnv({ home: home.dir, data });
  session = await connectStdio(['--demo', '--no-imports'], env);
  await session.client.callTool({ name: 'activate_power', arguments: { name: 'filesystem' } });
});

after(async () => {
  await session.client.close();
  home.cleanup();
});

const call = (name: string, args: Record<string, unknown>) => session.client.callTool({ name, arguments: args });
const summaryOf = (result: unknown) => JSON.parse((result as { content: Array<{ text: string }> }).content[0]!.text);
const metaOf = (result: unknown) => (result as { _meta: Record<string, any> })._meta['grimoire/summary'];

test('the gateway offers read_artifact, get_artifact_context and semantic_search', async () => {
  const names = (await session.client.listTools()).tools.map((t) => t.name);
  for (const name of ['read_artifact', 'get_artifact_context', 'semantic_search'])
    assert.ok(names.includes(name), name);
});

test('a large directory tree is summarized; every path is kept or paged from the artifact', async () => {
  const result = await call('filesystem__directory_tree', { path: project });
  assert.notEqual(result.isError, true, textOf(result));
  const summary = summaryOf(result);
  assert.match(summary.keyFindings[0], /Tree of \d+ entries: \d+ files and \d+ folders/);
  assert.equal(summary.metadata.power, 'filesystem');
  assert.equal(summary.metadata.tool, 'directory_tree');
  assert.equal(metaOf(result).summarizer, 'local', 'no sampling client, no VS Code: the local summarizer');
  const rawBytes = metaOf(result).rawBytes as number;
  assert.ok(
    textOf(result).length < rawBytes / 3,
    `the agent sees ${textOf(result).length} characters instead of ${rawBytes} bytes`,
  );
  assert.match(summary.identifiers.paths, /src\/module-0\/: component-\{0\.\.24\}\.ts/);
  const id = summary.metadata.artifactId;
  const page = await call('read_artifact', { id, offset: 0, limit: 400 });
  assert.match(textOf(page), /"name": "README.md"/);
  assert.equal(payload(page).next_offset, 400);
});

test(
  'a large file read is summarized, paged back exactly, assembled within a budget; ' +
    'read again it reaches the server (no spell opts in to the cache) and reuses the summary; ' +
    'a changed file is read anew',
  async () => {
    const file = path.join(project, 'docs', 'handbook.md');
    const content = fs.readFileSync(file, 'utf8');
    const first = await call('filesystem__read_text_file', { path: file });
    const summary = summaryOf(first);
    assert.match(summary.keyFindings.join(' '), /Operations handbook/);
    assert.ok(summary.identifiers.headings.includes('Runbook 0: service-0'));
    const structured = first.structuredContent as { content: string };
    assert.equal(typeof structured.content, 'string', "the tool's output schema ({content: string}) is still honoured");
    assert.ok(structured.content.length < content.length / 5);

    const id = summary.metadata.artifactId;
    let offset: number | null = 0;
    let joined = '';
    while (offset !== null) {
      const page = await call('read_artifact', { id, offset, limit: 20_000 });
      joined += (page.content as Array<{ text: string }>)[1]!.text;
      offset = payload(page).next_offset;
    }
    assert.equal(joined, content, 'the pages are the file');

    const context = await call('get_artifact_context', { ids: [id], maxTokens: 1200 });
    const used = encoding.encode(textOf(context)).length;
    assert.ok(used <= 1200 && used > 900, `used ${used} of 1200 tokens`);
    assert.match(textOf(context), /Excerpt \(characters 0-\d+/);

    const again = await call('filesystem__read_text_file', { path: file });
    assert.notEqual(summaryOf(again).metadata.cached, true, 'every call reaches the server by default');
    assert.notEqual(summaryOf(again).metadata.artifactId, id, 'a fresh result, stored anew');
    assert.equal(summaryOf(again).metadata.reusedFrom, id, 'the identical result was not summarized again');
    assert.deepEqual(summaryOf(again).keyFindings, summary.keyFindings);

    const changed = `${content}\n## Appendix\n\nAdded after the first read: see https://ops.example.com/appendix.\n`;
    await call('filesystem__list_directory', { path: path.dirname(file) }); // the spell's prerequisite for write_file
    const written = await call('filesystem__write_file', { path: file, content: changed });
    assert.notEqual(written.isError, true, textOf(written));
    const fresh = await call('filesystem__read_text_file', { path: file });
    assert.notEqual(summaryOf(fresh).metadata.cached, true);
    assert.equal(summaryOf(fresh).metadata.reusedFrom, undefined, 'new content, a new summary');
    const tail = await call('read_artifact', {
      id: summaryOf(fresh).metadata.artifactId,
      offset: changed.length - 200,
      limit: 500,
    });
    assert.match(textOf(tail), /Added after the first read/);
  },
);

test('semantic_search finds the stored results (lexically, no model in tests)', async () => {
  const found = payload(await call('semantic_search', { query: 'operations handbook runbook', limit: 3 }));
  assert.equal(found.mode, 'lexical');
  assert.equal(found.results[0].tool, 'read_text_file');
  assert.equal(typeof found.results[0].start, 'number');
  assert.ok(found.results[0].end > found.results[0].start);
  assert.match(found.results[0].passage, /handbook|runbook/i);
});

test('grimoire stats --json reports the tokens saved, per day and per power, and the tools/list savings', async () => {
  let report: Record<string, any> = {};
  await waitFor(
    () => {
      report = JSON.parse(
        execFileSync(process.execPath, [cliPath, 'stats', '--json', '--demo', '--no-imports'], {
          env,
          encoding: 'utf8',
        }),
      ).tokens;
      return report.summarized.results >= 4;
    },
    20_000,
    'token accounting of the summarized results',
  );
  assert.equal(report.tokenizer, 'o200k_base');
  assert.ok(report.summarized.savedTokens > 10_000, JSON.stringify(report.summarized));
  assert.ok(report.summarized.reduction > 0.8, JSON.stringify(report.summarized));
  assert.equal(report.byDay.length, 1);
  assert.equal(report.byPower[0].power, 'filesystem');
  assert.equal(report.cache.hits, 0, 'no spell opts in to answering from the cache');
  assert.ok(report.cache.misses >= 3);
  assert.equal(report.artifacts.count, 4, 'tree, first read, the identical read, read after the write');
  assert.ok(report.toolsList.configured.tools >= 30, JSON.stringify(report.toolsList));
  assert.equal(report.toolsList.configured.powers, 3, 'the demo powers configured for this command');
  assert.ok(report.toolsList.savedTokens > 0, JSON.stringify(report.toolsList));
  // Without the demo powers configured, the same store's catalog counts for nothing: direct exposure is what is configured now.
  const bare = JSON.parse(
    execFileSync(process.execPath, [cliPath, 'stats', '--json', '--no-imports'], { env, encoding: 'utf8' }),
  ).tokens;
  assert.deepEqual(
    [bare.toolsList.configured.powers, bare.toolsList.configured.tools, bare.toolsList.configured.tokens],
    [0, 0, 0],
  );
  assert.ok(bare.toolsList.savedTokens < 0, 'Grimoire alone costs its own list');
  const table = execFileSync(process.execPath, [cliPath, 'stats', '--no-imports'], { env, encoding: 'utf8' });
  assert.match(table, /Counted per model request: each tool call is one request/);
  assert.match(table, /No configured power has listed its tools yet/);
});
