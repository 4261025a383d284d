import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  connectHttp,
  connectStdio,
  gatewayEnv,
  payload,
  startHttpGateway,
  textOf,
  waitFor,
} from '../helpers/gateway-process.js';
import { cliPath, repoRoot, tempDir, writeSpell } from '../helpers/temp.js';

const memoryEntry = path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
const filesystemEntry = path.join(
  repoRoot,
  'node_modules',
  '@modelcontextprotocol',
  'server-filesystem',
  'dist',
  'index.js',
);

/** A script that leaves a mark when it runs, then serves MCP (server-memory): what an agent could write next to a spell. */
function helperScript(mark: string): string {
  return (
    `import fs from 'node:fs';\nfs.appendFileSync(${JSON.stringify(mark)}, ` +
    `String(process.pid) + '\\n');\nawait import(${JSON.stringify(memoryEntry)});\n`
  );
}

/**
 * A home for one test (removed after it) with a workspace `project` holding the helper script
 * (`helper.mjs`, leaving `mark` when it runs) and an empty `folder` (`.grimoire` or `.vscode`).
 */
function helperWorkspace(t: TestContext, folder: string) {
  const home = tempDir();
  t.after(() => home.cleanup());
  const workspace = path.join(home.dir, 'project');
  const mark = path.join(home.dir, 'helper-ran.txt');
  fs.mkdirSync(path.join(workspace, folder), { recursive: true });
  fs.writeFileSync(path.join(workspace, 'helper.mjs'), helperScript(mark));
  return { home, workspace, mark };
}

const writeFile = (client: Client, file: string, content: string) =>
  client.callTool({
    name: 'call_tool_destructive',
    arguments: {
      name: 'files:write_file',
      args: { path: file, content },
      intent: { operation_type: 'destructive', reason: 'the agent writes into the workspace' },
    },
  });

/**
 * The agent, through the filesystem power only, writes a workspace spell (and a `.vscode/mcp.json`
 * server) naming a script it also wrote. A real gateway over stdio with the workspace open: the
 * script is not started (not by discovery, resolve, activation or a call) until the user approves
 * it with `grimoire powers approve`; then it runs; a changed definition waits again.
 */
test(
  'a server named by a workspace file runs only once the user approved its exact launch',
  { timeout: 120_000 },
  async (t) => {
    const home = tempDir();
    t.after(() => home.cleanup());
    const workspace = path.join(home.dir, 'project');
    fs.mkdirSync(workspace, { recursive: true });
    const spells = path.join(home.dir, 'spells');
    writeSpell(
      spells,
      'files',
      `name: files\nversion: 1.0.0\ndescription: Read and write the project's files.\nkeywords: ` +
        `[files, write, read]\nserver:\n  command: ${JSON.stringify(process.execPath)}\n  args: ` +
        `${JSON.stringify([filesystemEntry, workspace])}\n`,
    );
    const env = gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') });
    const { client } = await connectStdio(['--spells', spells, '--workspace', workspace], env);
    t.after(() => client.close());

    const mark = path.join(home.dir, 'helper-ran.txt');
    const mcpMark = path.join(home.dir, 'mcp-helper-ran.txt');
    const script = path.join(workspace, 'helper.mjs');
    const spellText = (extra: string) =>
      `name: helper\nversion: 1.0.0\ndescription: Helps with notes and the knowledge graph.\nkeywords: ` +
      `[notes, graph, entities]\nserver:\n  command: ${JSON.stringify(process.execPath)}\n  args: ` +
      `${JSON.stringify([script, ...(extra ? [extra] : [])])}\n`;
    for (const folder of ['.grimoire', '.vscode']) {
      const made = await client.callTool({
        name: 'call_tool_write',
        arguments: {
          name: 'files:create_directory',
          args: { path: path.join(workspace, folder) },
          intent: { operation_type: 'write', reason: 'the agent makes a folder' },
        },
      });
      assert.ok(!made.isError, textOf(made));
    }
    for (const [file, content] of [
      [script, helperScript(mark)],
      [path.join(workspace, 'mcp-helper.mjs'), helperScript(mcpMark)],
      [path.join(workspace, '.grimoire', 'helper.spell.yaml'), spellText('')],
      [
        path.join(workspace, '.vscode', 'mcp.json'),
        JSON.stringify({
          servers: { 'mcp-helper': { command: process.execPath, args: [path.join(workspace, 'mcp-helper.mjs')] } },
        }),
      ],
    ]) {
      const written = await writeFile(client, file, content);
      assert.ok(!written.isError, textOf(written));
    }
    const listed = async () =>
      payload(
        await client.callTool({ name: 'resolve_intent', arguments: { query: 'add entities to the notes graph' } }),
      );
    await waitFor(
      async () => JSON.stringify(await listed()).includes('helper'),
      20_000,
      'the workspace spell is loaded',
    );

    const resolved = JSON.stringify(await listed());
    assert.match(resolved, /waiting for the user's approval to run/, 'the answer says it waits, with its command');
    assert.ok(resolved.includes('helper.mjs'), 'the command is shown');
    for (const name of ['helper', 'mcp-helper']) {
      const activation = await client.callTool({ name: 'activate_power', arguments: { name } });
      assert.equal(activation.isError, true, textOf(activation));
      assert.match(textOf(activation), /waiting for the user's approval to run/);
      assert.match(textOf(activation), new RegExp(`grimoire powers approve ${name}`));
      const call = await client.callTool({
        name: 'call_tool_read',
        arguments: { name: `${name}:read_graph`, args: {}, intent: { operation_type: 'read', reason: 'probe' } },
      });
      assert.equal(call.isError, true, textOf(call));
      assert.match(textOf(call), /waiting for the user's approval to run/);
    }
    // Discovery, resolve and the refused activations and calls had every chance to start them.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.ok(!fs.existsSync(mark), "the workspace spell's script never ran");
    assert.ok(!fs.existsSync(mcpMark), "the mcp.json server's script never ran");

    const list = execFileSync(
      process.execPath,
      [cliPath, 'powers', 'list', '--spells', spells, '--workspace', workspace],
      { env, encoding: 'utf8' },
    );
    assert.match(list, /waiting for approval to run: .*helper\.mjs/);
    const approved = execFileSync(
      process.execPath,
      [cliPath, 'powers', 'approve', 'helper', '--spells', spells, '--workspace', workspace],
      { env, encoding: 'utf8' },
    );
    assert.match(approved, /approved: 'helper' may run .*helper\.mjs/);

    await waitFor(
      async () => !(await client.callTool({ name: 'activate_power', arguments: { name: 'helper' } })).isError,
      10_000,
      'the approved power activates',
    );
    assert.ok(fs.existsSync(mark), 'approved, the script runs');
    assert.ok(!fs.existsSync(mcpMark), 'approving one launch approves no other');

    // The agent changes the approved definition: it waits again, and the changed server is not started.
    const runs = fs.readFileSync(mark, 'utf8');
    assert.ok(
      !(await writeFile(client, path.join(workspace, '.grimoire', 'helper.spell.yaml'), spellText('--changed')))
        .isError,
    );
    await waitFor(
      async () =>
        /waiting for the user's approval/.test(
          textOf(
            await client.callTool({
              name: 'call_tool_read',
              arguments: { name: 'helper:read_graph', args: {}, intent: { operation_type: 'read', reason: 'probe' } },
            }),
          ),
        ),
      10_000,
      'the changed definition waits again',
    );
    // The power is still active in this session: listing its resources or reading one starts nothing either.
    await client.listResources().catch(() => undefined);
    await assert.rejects(
      client.readResource({ uri: `grimoire://power/helper/${encodeURIComponent('memory://graph')}` }),
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.equal(fs.readFileSync(mark, 'utf8'), runs, 'the changed launch never ran');
  },
);

/**
 * Over HTTP, the approval takes the admin credential: the agent's MCP token (the gateway's own, or
 * a team user's) is refused, a stale definition is refused, the admin token approves; --trust-workspace
 * (CI) starts the workspace's server with no approval at all.
 */
test(
  'the REST approval takes the admin token, never an MCP token, and only for the definition seen',
  { timeout: 120_000 },
  async (t) => {
    const { home, workspace, mark } = helperWorkspace(t, '.grimoire');
    writeSpell(
      path.join(workspace, '.grimoire'),
      'helper',
      `name: helper\nversion: 1.0.0\ndescription: Helps with notes.\nkeywords: ` +
        `[notes, graph, entities]\nserver:\n  command: ${JSON.stringify(process.execPath)}\n  args: ` +
        `[${JSON.stringify(path.join(workspace, 'helper.mjs'))}]\n`,
    );
    const adminToken = 'admin-' + 'z'.repeat(40);
    const env = gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') }, { GRIMOIRE_ADMIN_TOKEN: adminToken });
    const gateway = await startHttpGateway(['--workspace', workspace, '--no-imports'], env);
    t.after(() => gateway.stop());
    const rest = (route: string, token: string, body?: unknown) =>
      fetch(new URL(route, gateway.url), {
        method: body ? 'POST' : 'GET',
        headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });

    const waiting = (await (await rest('/api/v1/powers/launches', gateway.token)).json()) as {
      waiting: { power: string; command: string; hash: string }[];
    };
    assert.equal(waiting.waiting.length, 1);
    assert.equal(waiting.waiting[0].power, 'helper');
    assert.match(waiting.waiting[0].command, /helper\.mjs/);
    const byMcpToken = await rest('/api/v1/powers/approve', gateway.token, {
      power: 'helper',
      hash: waiting.waiting[0].hash,
    });
    assert.equal(byMcpToken.status, 403, 'the MCP token an agent holds cannot approve');
    const stale = await rest('/api/v1/powers/approve', adminToken, {
      power: 'helper',
      hash: 'not-the-definition-seen',
    });
    assert.equal(stale.status, 409);
    const session = await connectHttp(gateway.url, gateway.token);
    t.after(() => session.client.close());
    const refused = await session.client.callTool({ name: 'activate_power', arguments: { name: 'helper' } });
    assert.match(textOf(refused), /waiting for the user's approval to run/);
    assert.ok(!fs.existsSync(mark), 'not started before the approval');

    const approved = await rest('/api/v1/powers/approve', adminToken, {
      power: 'helper',
      hash: waiting.waiting[0].hash,
    });
    assert.equal(approved.status, 200, await approved.clone().text());
    const activated = await session.client.callTool({ name: 'activate_power', arguments: { name: 'helper' } });
    assert.equal(payload(activated).status, 'activated', textOf(activated));
    assert.ok(fs.existsSync(mark), 'approved, it runs');
  },
);

test("serve --trust-workspace (CI) starts the workspace's server without asking", { timeout: 60_000 }, async (t) => {
  const { home, workspace, mark } = helperWorkspace(t, '.vscode');
  fs.writeFileSync(
    path.join(workspace, '.vscode', 'mcp.json'),
    JSON.stringify({ servers: { helper: { command: process.execPath, args: [path.join(workspace, 'helper.mjs')] } } }),
  );
  const { client } = await connectStdio(
    ['--workspace', workspace, '--trust-workspace'],
    gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') }),
  );
  t.after(() => client.close());
  const activated = await client.callTool({ name: 'activate_power', arguments: { name: 'helper' } });
  assert.equal(payload(activated).status, 'activated', textOf(activated));
  assert.ok(fs.existsSync(mark));
});
