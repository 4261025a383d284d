/**
 * Routing the real memory server out of a workspace's mcp.json: the spell it becomes keeps the
 * workspace variable, says what the server is about in words that tell it apart, and the
 * resolver still finds it for what a user says when they want something remembered.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { adopt, adoptionKeywordQuery, planAdoption } from '../../client/adoption-files.js';
import { keywordsFor } from '../../server/spells/spell-keywords.js';
import { approveLaunches, connectStdio, gatewayEnv, payload, waitFor } from '../helpers/gateway-process.js';
import { cliPath, repoRoot, tempDir } from '../helpers/temp.js';
import { MEMORY_TOOL_NAMES } from '../helpers/memory-spell.js';

const memoryServer = path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
const FILLER = ['active', 'voice', 'between', 'existing', 'entire', 'multiple', 'specific'];

function resolve(
  query: string,
  workspace: string,
  env: Record<string, string>,
): { status: string; candidates: string[] } {
  return JSON.parse(
    execFileSync(process.execPath, [cliPath, 'resolve', query, '--json', '--workspace', workspace], {
      env,
      encoding: 'utf8',
    }),
  );
}

test('the routed memory spell is portable, has telling keywords and is still found for "remember ..."', async () => {
  const home = tempDir();
  const workspace = path.join(home.dir, 'ws');
  const mcpFile = path.join(workspace, '.vscode', 'mcp.json');
  fs.mkdirSync(path.dirname(mcpFile), { recursive: true });
  const text =
    `{
  "servers": {
    "memory": { "command": ${JSON.stringify(process.execPath)}, "args": ` +
    `[${JSON.stringify(memoryServer)}], "env": { "MEMORY_FILE_PATH": "\${workspaceFolder}/memory.jsonl" } }
  }
}
`;
  fs.writeFileSync(mcpFile, text);
  const data = path.join(home.dir, 'data');
  const env = gatewayEnv({ home: home.dir, data });
  // The user approved the workspace server's launch (as VS Code's modal or the command line would).
  approveLaunches(env, ['memory'], ['--workspace', workspace]);
  const session = await connectStdio(['--workspace', workspace], env);
  let described: { description: string; tools: string[] } | undefined;
  try {
    // Discovery lists the server's tools in the background: no call needed.
    await waitFor(
      async () => {
        const result = payload(await session.client.callTool({ name: 'resolve_intent', arguments: { query: 'zzz' } }));
        const power = result.powers?.find((p: { name: string }) => p.name === 'memory');
        return Boolean(power && !/not listed yet/.test(power.description));
      },
      20_000,
      'the memory power described by its tools',
    );
  } finally {
    await session.client.close();
  }
  try {
    const listed = JSON.parse(
      execFileSync(process.execPath, [cliPath, 'powers', 'list', '--json', '--workspace', workspace], {
        env,
        encoding: 'utf8',
      }),
    ).powers.find((p: { name: string }) => p.name === 'memory');
    described = {
      description: listed.description,
      tools: [...MEMORY_TOOL_NAMES],
    };
    assert.equal(listed.tools, described.tools.length, 'the nine tools of the real server');
    const query = 'remember that the release is on Friday';

    const plan = planAdoption('memory', mcpFile, home.dir);
    assert.ok(plan.ok, JSON.stringify(plan));
    const known = { description: described.description, toolNames: described.tools };
    const adoption = adopt(plan, { ...known, keywords: keywordsFor(adoptionKeywordQuery(plan, known)) }, data);
    const spellText = fs.readFileSync(adoption.spellFile, 'utf8');
    const spell = parse(spellText) as { keywords: string[]; server: { env: Record<string, string> } };
    assert.equal(
      spell.server.env.MEMORY_FILE_PATH,
      '${workspaceFolder}/memory.jsonl',
      'a variable, not the absolute path',
    );
    assert.ok(!spellText.includes(workspace), 'no absolute path of the workspace');
    for (const word of FILLER)
      assert.ok(!spell.keywords.includes(word), `no filler "${word}" in ${spell.keywords.join(', ')}`);
    assert.doesNotMatch(spellText, /placeholder|TODO|steering/i);

    const routed = resolve(query, workspace, env);
    assert.notEqual(routed.status, 'not_found', `found once routed: ${JSON.stringify(routed)}`);
    assert.equal(routed.candidates[0], 'memory');
    const powers = JSON.parse(
      execFileSync(process.execPath, [cliPath, 'powers', 'list', '--json', '--workspace', workspace], {
        env,
        encoding: 'utf8',
      }),
    ).powers;
    assert.deepEqual(
      powers
        .filter((p: { name: string }) => p.name === 'memory')
        .map((p: { source: string; problems: string[] }) => [p.source, p.problems]),
      [['spell', []]],
      'one power, from the spell, its variable set',
    );
  } finally {
    home.cleanup();
  }
});
