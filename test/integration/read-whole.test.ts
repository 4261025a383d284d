import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connectStdio, gatewayEnv, textOf } from '../helpers/gateway-process.js';
import { repoRoot, tempDir } from '../helpers/temp.js';

test(
  'a 20 KB source file read through call_tool_read arrives whole; a directory tree of the same folder is summarized',
  { timeout: 60_000 },
  async () => {
    const home = tempDir();
    const data = path.join(home.dir, 'data');
    const project = path.join(data, 'demo-project');
    fs.cpSync(path.join(repoRoot, 'server', 'demo', 'project'), project, { recursive: true });
    // A real source file of this repository, about 20 KB.
    const source = fs.readFileSync(path.join(repoRoot, 'server', 'intel', 'local', 'json-summary.ts'), 'utf8');
    assert.ok(Buffer.byteLength(source) >= 17 * 1024, `${Buffer.byteLength(source)} bytes`);
    fs.writeFileSync(path.join(project, 'src', 'json-summary.ts'), source);
    fs.cpSync(path.join(repoRoot, 'server', 'intel'), path.join(project, 'src', 'intel'), { recursive: true });
    const session = await connectStdio(['--demo', '--no-imports'], gatewayEnv({ home: home.dir, data }));
    try {
      const read = await session.client.callTool({
        name: 'call_tool_read',
        arguments: {
          name: 'filesystem:read_text_file',
          args: { path: path.join(project, 'src', 'json-summary.ts') },
          intent: { operation_type: 'read', reason: 'edit it' },
        },
      });
      assert.notEqual(read.isError, true, textOf(read));
      assert.equal(read._meta?.['grimoire/summary'], undefined, 'not summarized');
      assert.ok(textOf(read).includes(source), 'the whole file, byte for byte');

      const tree = await session.client.callTool({
        name: 'call_tool_read',
        arguments: {
          name: 'filesystem:directory_tree',
          args: { path: path.join(project, 'src') },
          intent: { operation_type: 'read' },
        },
      });
      const meta = tree._meta?.['grimoire/summary'] as { artifactId?: string } | undefined;
      assert.match(meta?.artifactId ?? '', /^art_/, 'bulk output is summarized and kept');
      assert.ok(Array.isArray(JSON.parse((tree.content as Array<{ text: string }>)[0]!.text).keyFindings));
    } finally {
      await session.client.close();
      home.cleanup();
    }
  },
);
