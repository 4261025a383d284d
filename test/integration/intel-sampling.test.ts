import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CreateMessageRequestSchema,
  type CreateMessageRequest,
  type CreateMessageResult,
} from '@modelcontextprotocol/sdk/types.js';
import { gatewayEnv, textOf } from '../helpers/gateway-process.js';
import { cliPath, repoRoot, tempDir } from '../helpers/temp.js';

/**
 * Summarizer 1 against a real MCP client: a SCRIPTED SAMPLING CLIENT (the SDK's Client declaring
 * the sampling capability, answering sampling/createMessage with fixed replies chosen by the
 * test, no model behind it) connected to a real gateway process over stdio.
 */
type Script = 'good' | 'bad-json' | 'slow';
let script: Script = 'good';
const requests: CreateMessageRequest['params'][] = [];
const SCRIPTED =
  '{"keyFindings":["The changelog lists 60 releases.","Release 60.0.0 is the newest.","Every release ' +
  'names its pull requests."],"actionableInsights":["Read the 60.0.0 notes before upgrading."]}';

let home: { dir: string; cleanup: () => void };
let project: string;
let client: Client;

before(async () => {
  home = tempDir();
  const data = path.join(home.dir, 'data');
  project = path.join(data, 'demo-project');
  fs.cpSync(path.join(repoRoot, 'server', 'demo', 'project'), project, { recursive: true });
  for (const name of ['CHANGELOG.md', 'HISTORY.md', 'RELEASES.md']) {
    const lines = ['# Changelog', ''];
    for (let v = 60; v > 0; v--)
      lines.push(
        `## ${v}.0.0 (${name})`,
        '',
        `- Fix the launcher crash on start (#${1000 + v}).`,
        `- Speed up the resolver by ${v}% (#${2000 + v}).`,
        '',
      );
    fs.writeFileSync(path.join(project, 'docs', name), lines.join('\n'));
  }
  // The sampling timeout is a setting: short here, so that the slow script falls back quickly. The
  // read budget is low so that these small files are summarized (a file read comes back whole up to it).
  fs.writeFileSync(
    path.join(home.dir, 'settings.json'),
    JSON.stringify({ intel: { readWholeTokens: 256, summarizers: { sampling: { timeoutMs: 1500 } } } }),
  );
  client = new Client({ name: 'scripted-sampling-client', version: '1.0.0' }, { capabilities: { sampling: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, async (request): Promise<CreateMessageResult> => {
    requests.push(request.params);
    if (script === 'slow') await new Promise((resolve) => setTimeout(resolve, 4000));
    const text = script === 'bad-json' ? 'Here is what I found: a changelog with many releases.' : SCRIPTED;
    return { model: 'scripted-test-model', role: 'assistant', content: { type: 'text', text } };
  });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'serve', '--stdio', '--demo', '--no-imports'],
    env: gatewayEnv({ home: home.dir, data }),
    stderr: 'pipe',
  });
  await client.connect(transport);
  await client.callTool({ name: 'activate_power', arguments: { name: 'filesystem' } });
});

after(async () => {
  await client.close();
  home.cleanup();
});

async function read(file: string) {
  const result = await client.callTool({
    name: 'filesystem__read_text_file',
    arguments: { path: path.join(project, 'docs', file) },
  });
  assert.notEqual(result.isError, true, textOf(result));
  const content = result.content as Array<{ text: string }>;
  return { summary: JSON.parse(content[0]!.text), meta: (result._meta as Record<string, any>)['grimoire/summary'] };
}

test("the scripted sampling client's reply becomes the summary (summarizer 1: MCP sampling)", async () => {
  script = 'good';
  const { summary, meta } = await read('CHANGELOG.md');
  assert.equal(meta.summarizer, 'sampling');
  assert.deepEqual(summary.keyFindings, [
    'The changelog lists 60 releases.',
    'Release 60.0.0 is the newest.',
    'Every release names its pull requests.',
  ]);
  assert.deepEqual(summary.actionableInsights, ['Read the 60.0.0 notes before upgrading.']);
  assert.ok(summary.identifiers.headings, 'the local identifiers ride along');
  assert.match(summary.metadata.artifactId, /^art_/);
  const asked = requests.at(-1)!;
  const content = asked.messages[0]!.content as { type: string; text: string };
  assert.match(content.text, /Tool: filesystem:read_text_file/);
  assert.match(content.text, /## 60\.0\.0/);
  assert.match(asked.systemPrompt ?? '', /Reply with one JSON object/);
  assert.equal(asked.includeContext, 'none');
});

test('a bad-JSON reply from the scripted client falls back to the local summarizer', async () => {
  script = 'bad-json';
  const before = requests.length;
  const { summary, meta } = await read('HISTORY.md');
  assert.equal(requests.length, before + 1, 'the client was asked');
  assert.equal(meta.summarizer, 'local');
  assert.deepEqual(
    meta.attempts.map((a: { summarizer: string; outcome: string }) => `${a.summarizer}:${a.outcome}`),
    ['vscodeLm:not available', 'sampling:failed', 'local:used'],
  );
  assert.match(meta.attempts[1].detail, /no JSON object/);
  assert.match(summary.keyFindings[0], /Markdown document "Changelog"/);
});

test('a scripted client slower than the sampling timeout falls back to the local summarizer', async () => {
  script = 'slow';
  const started = Date.now();
  const { meta } = await read('RELEASES.md');
  assert.equal(meta.summarizer, 'local');
  assert.match(meta.attempts[1].detail, /no reply within 1500 ms/);
  assert.ok(Date.now() - started < 4000, 'the call did not wait for the slow reply');
});
