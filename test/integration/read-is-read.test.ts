import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connectStdio, gatewayEnv, payload, textOf } from '../helpers/gateway-process.js';
import { repoRoot, tempDir, writeSpell } from '../helpers/temp.js';

/**
 * Real servers from npm: mcp-sqlite's unannotated `query` (it executes any SQL) is refused on the read
 * variant and allowed on the write one; server-filesystem reads a changed file anew every time.
 */
let home: { dir: string; cleanup: () => void };
let session: Awaited<ReturnType<typeof connectStdio>>;
let notes: string;

before(async () => {
  home = tempDir();
  const spells = path.join(home.dir, 'spells');
  writeSpell(
    spells,
    'sqlite',
    `name: sqlite
version: 1.0.0
description: A SQLite database.
keywords: [sql, database, table]
server:
  command: ${JSON.stringify(process.execPath)}
  args: ${JSON.stringify([path.join(repoRoot, 'node_modules', 'mcp-sqlite', 'mcp-sqlite-server.js'), path.join(home.dir, 'test.db')])}
`,
  );
  const project = path.join(home.dir, 'project');
  fs.mkdirSync(project);
  notes = path.join(project, 'notes.txt');
  writeSpell(
    spells,
    'files',
    `name: files
version: 1.0.0
description: Files of the project.
keywords: [file, read, folder]
server:
  command: ${JSON.stringify(process.execPath)}
  args: ${JSON.stringify([path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js'), project])}
`,
  );
  session = await connectStdio(
    ['--spells', spells, '--no-imports'],
    gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') }),
  );
});

after(async () => {
  await session.client.close();
  home.cleanup();
});

const call = (variant: 'read' | 'write', name: string, args: Record<string, unknown>) =>
  session.client.callTool({
    name: `call_tool_${variant}`,
    arguments: { name, args, intent: { operation_type: variant, reason: 'test' } },
  });

test(
  "sqlite's unannotated query (it executes any SQL): DELETE refused on call_tool_read with how to " +
    'proceed, allowed on call_tool_write',
  async () => {
    for (const sql of [
      'CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)',
      "INSERT INTO notes (text) VALUES ('keep'), ('drop')",
    ]) {
      const made = await call('write', 'sqlite:query', { sql });
      assert.notEqual(made.isError, true, textOf(made));
    }
    const refused = await call('read', 'sqlite:query', { sql: "DELETE FROM notes WHERE text = 'drop'" });
    assert.equal(refused.isError, true);
    assert.equal(
      payload(refused).error,
      "Tool 'sqlite:query' is marked as not read-only by Grimoire from its name or description (inferred; " +
        'no annotation was given) (it writes); use call_tool_write.',
    );
    const count = async () =>
      JSON.parse(textOf(await call('write', 'sqlite:query', { sql: 'SELECT COUNT(*) AS n FROM notes' })))[0].n;
    assert.equal(await count(), 2, 'nothing was deleted');

    const found = payload(
      await session.client.callTool({
        name: 'retrieve_tools',
        arguments: { query: 'execute a raw SQL query', limit: 5 },
      }),
    );
    const query = found.tools.find((t: { name: string }) => t.name === 'sqlite:query');
    assert.equal(query.call_with, 'call_tool_write');
    assert.equal(query.annotations.inferred, true, 'the guess is shown, marked inferred');

    const deleted = await call('write', 'sqlite:query', { sql: "DELETE FROM notes WHERE text = 'drop'" });
    assert.notEqual(deleted.isError, true, textOf(deleted));
    assert.equal(await count(), 1);
  },
);

test('a changed file read twice returns the new content (over 2 KB: summarized, never served from cache)', async () => {
  const body = (marker: string) =>
    `${marker}\n${'The quick brown fox jumps over the lazy dog. '.repeat(80)}\nend of ${marker}\n`;
  fs.writeFileSync(notes, body('VERSION-ONE'));
  const first = await call('read', 'files:read_text_file', { path: notes });
  assert.notEqual(first.isError, true, textOf(first));
  fs.writeFileSync(notes, body('VERSION-TWO'));
  const second = await call('read', 'files:read_text_file', { path: notes });
  assert.doesNotMatch(JSON.stringify(second), /"cached":\s*true/, 'not served from the cache');
  const full = async (result: unknown) => {
    const id = /art_[A-Za-z0-9_-]+/.exec(JSON.stringify(result))?.[0];
    if (!id) return textOf(result);
    return textOf(await session.client.callTool({ name: 'read_artifact', arguments: { id } }));
  };
  assert.match(await full(first), /VERSION-ONE/);
  const secondText = await full(second);
  assert.match(secondText, /VERSION-TWO/);
  assert.doesNotMatch(secondText, /VERSION-ONE/);
});
