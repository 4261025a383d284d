/**
 * "Route Through Grimoire Alone" on disk: the entry leaves a real mcp.json (comments and the other
 * servers kept), a backup and a spell are written, the real spell loader reads the spell as the same
 * server the import was, and the undo puts the entry back.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { adopt, adoptions, planAdoption, spellFolderFor, undoAdoption } from '../../client/adoption-files.js';
import { serverIdentity } from '../../server/powers/import-common.js';
import { importVscodeMcp } from '../../server/powers/import-vscode.js';
import { parseJsonc } from '../../server/powers/jsonc.js';
import { loadSpellFile } from '../../server/powers/spell-loader.js';
import { scratchFolder } from '../helpers/temp.js';

const scratch = scratchFolder('grimoire-adoption-');

const MCP_JSON = `{
  // Our team's servers.
  "servers": {
    "Shared Notes": {
      "type": "stdio",
      "command": "node",
      "args": ["\${workspaceFolder}/notes-server.js", "--home", "\${userHome}"],
      "env": { "NOTES_TOKEN": "\${env:NOTES_TOKEN}", "MODE": "team" }
    },
    "other": { "command": "uvx", "args": ["other-server"] }
  }
}
`;

function workspace(name: string, text = MCP_JSON): { root: string; mcpFile: string; data: string; home: string } {
  const root = path.join(scratch.root(), name);
  const mcpFile = scratch.write(`${name}/.vscode/mcp.json`, text);
  return { root, mcpFile, data: path.join(root, 'data'), home: path.join(root, 'grimoire-home') };
}

const words = { description: 'Team notes: search, read and write the shared notes.', keywords: ['notes', 'search', 'team'] };
const env = { NOTES_TOKEN: 'secret-token-value-123', HOME: '/home/someone' };

describe('route through Grimoire alone', () => {
  test('moves the entry into a spell that loads as the same server, with a backup; the undo puts it back', () => {
    const w = workspace('move');
    const plan = planAdoption('shared-notes', w.mcpFile, w.home);
    assert.ok(plan.ok, JSON.stringify(plan));
    assert.equal(plan.spellFile, path.join(w.root, '.grimoire', 'shared-notes.spell.yaml'));
    const imported = importVscodeMcp(w.mcpFile, { env, home: env.HOME }).powers.find((p) => p.name === 'shared-notes')!;

    const adoption = adopt(plan, words, w.data, new Date('2026-11-27T10:00:00Z'));
    assert.equal(fs.readFileSync(adoption.backupFile, 'utf8'), MCP_JSON, 'the whole mcp.json, as it was');
    const after = fs.readFileSync(w.mcpFile, 'utf8');
    assert.match(after, /\/\/ Our team's servers\./, 'comments kept');
    assert.deepEqual(Object.keys((parseJsonc(after) as { servers: object }).servers), ['other']);
    const spell = fs.readFileSync(adoption.spellFile, 'utf8');
    assert.doesNotMatch(spell, /secret-token-value-123/, 'the secret stays a variable');
    assert.doesNotMatch(spell, /Say in one sentence|which tool to call first/, 'no placeholder');
    const loaded = loadSpellFile(adoption.spellFile, { env });
    assert.deepEqual(loaded.issues, []);
    assert.equal(loaded.power?.name, 'shared-notes');
    assert.equal(loaded.power?.description, words.description);
    assert.equal(serverIdentity(loaded.power!.server), serverIdentity(imported.server), 'the same server: its activation carries over');
    assert.deepEqual(adoptions(w.data).map((a) => a.power), ['shared-notes']);

    const undone = undoAdoption(adoption, w.data);
    assert.deepEqual(undone, { restored: true });
    assert.deepEqual(parseJsonc(fs.readFileSync(w.mcpFile, 'utf8')), { servers: { other: { command: 'uvx', args: ['other-server'] }, 'Shared Notes': (parseJsonc(MCP_JSON) as { servers: Record<string, unknown> }).servers['Shared Notes'] } });
    assert.ok(!fs.existsSync(adoption.spellFile));
    assert.deepEqual(adoptions(w.data), []);
  });

  test("a spell edited since the move is kept by the undo; an entry put back by hand is left alone", () => {
    const w = workspace('edited');
    const plan = planAdoption('shared-notes', w.mcpFile, w.home);
    assert.ok(plan.ok);
    const adoption = adopt(plan, words, w.data);
    fs.appendFileSync(adoption.spellFile, '# my own note\n');
    fs.writeFileSync(w.mcpFile, MCP_JSON);
    assert.deepEqual(undoAdoption(adoption, w.data), { restored: false, keptSpell: adoption.spellFile });
    assert.equal(fs.readFileSync(w.mcpFile, 'utf8'), MCP_JSON);
    assert.ok(fs.existsSync(adoption.spellFile));
  });

  test('refuses what a spell cannot say, and never overwrites a spell', () => {
    const input = workspace('input', JSON.stringify({ servers: { asks: { command: 'x', env: { KEY: '${input:key}' } } } }));
    assert.match(planAdoption('asks', input.mcpFile, input.home).ok ? '' : (planAdoption('asks', input.mcpFile, input.home) as { message: string }).message, /asks VS Code for an input/);
    const envFile = workspace('envfile', JSON.stringify({ servers: { reads: { command: 'x', envFile: '${workspaceFolder}/.env' } } }));
    assert.match((planAdoption('reads', envFile.mcpFile, envFile.home) as { message: string }).message, /reads an envFile/);
    const taken = workspace('taken');
    scratch.write('taken/.grimoire/shared-notes.spell.yaml', 'name: shared-notes\n');
    assert.match((planAdoption('shared-notes', taken.mcpFile, taken.home) as { message: string }).message, /already exists/);
    assert.match((planAdoption('nobody', taken.mcpFile, taken.home) as { message: string }).message, /has no server that becomes the power "nobody"/);
    for (const w of [input, envFile, taken]) assert.deepEqual(adoptions(w.data), [], 'nothing moved');
  });

  test("the user's own mcp.json moves into the Grimoire home", () => {
    assert.equal(spellFolderFor('/home/u/.config/Code/User/mcp.json', '/home/u/.grimoire'), '/home/u/.grimoire');
    assert.equal(spellFolderFor('/w/.vscode/mcp.json', '/home/u/.grimoire'), '/w/.grimoire');
  });
});
