import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Tool } from '../../server/util/mcp-types.js';
import { effectiveAnnotations } from '../../server/calls/annotations.js';
import { validateIntent } from '../../server/calls/intent-validation.js';
import { confirmReads, readCandidates, type ListedTools } from '../../server/catalog/read-candidates.js';
import { ReadConfirmations } from '../../server/trust/read-confirmations.js';
import { Store } from '../../server/store/store.js';
import { repoRoot, tempDir } from '../helpers/temp.js';

/** The 215 tools of the 14 real npm servers (test/fixtures/benchmarks/real-servers), as they list them. */
const realTools = fs
  .readFileSync(path.join(repoRoot, 'test', 'fixtures', 'benchmarks', 'real-servers', 'tools.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as Tool & { server: string });

/** The unannotated tools among them that change something, by what their descriptions say they do. */
const UNANNOTATED_WRITES = new Set([
  'github:create_or_update_file',
  'github:create_repository',
  'github:push_files',
  'github:create_issue',
  'github:create_pull_request',
  'github:fork_repository',
  'github:create_branch',
  'github:update_issue',
  'github:add_issue_comment',
  'github:create_pull_request_review',
  'github:merge_pull_request',
  'github:update_pull_request_branch',
  'sqlite:query',
  'sqlite:create_record',
  'sqlite:update_records',
  'sqlite:delete_records',
]);

function listed(): ListedTools {
  const byPower = new Map<string, Tool[]>();
  for (const tool of realTools) byPower.set(tool.server, [...(byPower.get(tool.server) ?? []), tool]);
  return {
    powers: () => [...byPower.keys()].map((name) => ({ name })),
    toolsOf: (power) => byPower.get(power) ?? [],
    overrideOf: () => undefined,
  };
}

test(
  'after one confirmation of every believed read, every true read of the 215 real tools passes ' +
    'call_tool_read and no write does',
  async () => {
    const home = tempDir();
    const store = await Store.open({ dataDir: home.dir });
    const reads = new ReadConfirmations(store);
    try {
      const tools = listed();
      const before = readCandidates(
        tools.powers().map((p) => ({ power: p.name, tools: tools.toolsOf(p.name) })),
        reads,
      );
      assert.ok(before.length >= 25, `${before.length} believed reads`);
      const outcome = confirmReads(['all'], tools, reads);
      assert.deepEqual(outcome.refused, []);
      const unannotated = realTools.filter(
        (t) => t.annotations?.readOnlyHint === undefined && t.annotations?.destructiveHint === undefined,
      );
      assert.equal(unannotated.length, 46);
      for (const tool of realTools) {
        const name = `${tool.server}:${tool.name}`;
        const annotations = effectiveAnnotations(tool, undefined, true, reads.isConfirmed(tool.server, tool));
        const allowed =
          validateIntent('read', { operation_type: 'read' }, name, annotations, true).decision === 'allowed';
        const trueRead = unannotated.includes(tool)
          ? !UNANNOTATED_WRITES.has(name)
          : tool.annotations?.readOnlyHint === true;
        assert.equal(allowed, trueRead, `${name}: call_tool_read ${allowed ? 'allowed' : 'refused'}`);
      }
    } finally {
      reads.close();
      store.close();
      home.cleanup();
    }
  },
);

test(
  'a confirmation holds for the version confirmed; another process sees it; ' +
    'a spell or server that declares a write cannot be overruled by it',
  async () => {
    const home = tempDir();
    const store = await Store.open({ dataDir: home.dir });
    const reads = new ReadConfirmations(store);
    const other = new ReadConfirmations(store);
    try {
      const clock: Tool = {
        name: 'get_current_time',
        description: 'Get the current date and time.',
        inputSchema: { type: 'object', properties: {} },
      };
      const writes: Tool = {
        name: 'list_jobs',
        description: 'List the jobs.',
        inputSchema: { type: 'object' },
        annotations: { readOnlyHint: false },
      };
      const view: ListedTools = {
        powers: () => [{ name: 'time' }],
        toolsOf: () => [clock, writes],
        overrideOf: () => undefined,
      };
      assert.deepEqual(
        readCandidates([{ power: 'time', tools: view.toolsOf('time') }], reads).map((c) => `${c.tool}:${c.status}`),
        ['get_current_time:new'],
      );
      const refused = confirmReads([{ power: 'time', tool: 'list_jobs' }], view, reads);
      assert.match(refused.refused[0], /declared to write by its server: it cannot be confirmed read-only/);
      assert.equal(confirmReads([{ power: 'time', tool: 'get_current_time' }], view, reads).confirmed.length, 1);
      assert.equal(reads.isConfirmed('time', clock), true);
      other.poll();
      assert.equal(other.isConfirmed('time', clock), true, 'another reader of the store');
      const changed = { ...clock, description: 'Get the current date and time, or set it.' };
      assert.equal(reads.isConfirmed('time', changed), false);
      assert.deepEqual(
        readCandidates([{ power: 'time', tools: [changed] }], reads).map((c) => c.status),
        ['changed'],
      );
      assert.equal(reads.revoke('time', 'get_current_time'), true);
      assert.equal(reads.isConfirmed('time', clock), false);
    } finally {
      reads.close();
      other.close();
      store.close();
      home.cleanup();
    }
  },
);
