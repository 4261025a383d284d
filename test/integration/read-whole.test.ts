import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connectStdio, gatewayEnv, textOf } from '../helpers/gateway-process.js';
import { repoRoot, tempDir } from '../helpers/temp.js';

/** TypeScript source of at least `bytes` bytes: one small exported function after another. */
function sourceOf(bytes: number): string {
  const lines: string[] = [];
  for (let i = 0; lines.join('\n').length < bytes; i++)
    lines.push(
      `export function handler${i}(input: string): number {`,
      `  return input.length * ${i}; // keeps record ${i}`,
      '}',
      '',
    );
  return lines.join('\n');
}

test(
  'a 20 KB source file read through call_tool_read arrives whole; a directory tree of the same folder is summarized',
  { timeout: 60_000 },
  async () => {
    const home = tempDir();
    const data = path.join(home.dir, 'data');
    const project = path.join(data, 'demo-project');
    fs.cpSync(path.join(repoRoot, 'server', 'demo', 'project'), project, { recursive: true });
    // A source file of about 20 KB, and a folder of 120 modules whose directory tree is bulk output.
    const source = sourceOf(20 * 1024);
    fs.writeFileSync(path.join(project, 'src', 'handlers.ts'), source);
    for (let i = 0; i < 120; i++) {
      const folder = path.join(project, 'src', 'modules', `area-${i % 6}`);
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(path.join(folder, `module-${i}.ts`), `export const module${i} = ${i};\n`);
    }
    const session = await connectStdio(['--demo', '--no-imports'], gatewayEnv({ home: home.dir, data }));
    try {
      const read = await session.client.callTool({
        name: 'call_tool_read',
        arguments: {
          name: 'filesystem:read_text_file',
          args: { path: path.join(project, 'src', 'handlers.ts') },
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
