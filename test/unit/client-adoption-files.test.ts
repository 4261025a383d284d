/**
 * "Route Through Grimoire Alone" on disk, on the kinds of mcp.json users have: the entry leaves by
 * one minimal edit (everything else byte for byte), the real spell loader reads the spell as the
 * same server the import was, and the undo gives back the exact bytes, mode and symlink. Secrets,
 * a planted temporary, an unwritable .vscode, damaged records and concurrent edits change nothing
 * they should not.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import nodeFs from 'node:fs';
import * as path from 'node:path';
import {
  AdoptionError,
  adopt,
  adoptionKeywordQuery,
  adoptions,
  planAdoption,
  readRecords,
  spellFolderFor,
  undoAdoption,
  type AdoptionPlan,
} from '../../client/adoption-files.js';
import { replaceFile } from '../../client/file-write.js';
import { secretsFolder, writeSecret } from '../../shared/secret-files.js';
import { serverIdentity } from '../../server/powers/import-common.js';
import { shortHash } from '../../shared/hash.js';
import { importVscodeMcp } from '../../server/powers/import-vscode.js';
import { parseJsonc } from '../../shared/jsonc.js';
import { loadSpellFile } from '../../server/powers/spell-loader.js';
import { keywordsFor } from '../../server/spells/spell-keywords.js';
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
    // The other team's server: keep it.
    "other": { "command": "uvx", "args": ["other-server"] }
  }
}
`;

function workspace(
  name: string,
  text: string | Buffer = MCP_JSON,
): { root: string; mcpFile: string; data: string; home: string } {
  const root = path.join(scratch.root(), name);
  const mcpFile = path.join(root, '.vscode', 'mcp.json');
  fs.mkdirSync(path.dirname(mcpFile), { recursive: true });
  fs.writeFileSync(mcpFile, text);
  return { root, mcpFile, data: path.join(root, 'data'), home: path.join(root, 'grimoire-home') };
}

const words = {
  description: 'Team notes: search, read and write the shared notes.',
  toolNames: ['search_notes', 'read_note', 'write_note'],
};
const env = { NOTES_TOKEN: 'secret-token-value-123', HOME: '/home/someone', PATH: process.env.PATH };

/** `words` with the keywords the gateway answers protocol.spellKeywords with for the plan. */
function wordsFor(plan: Extract<AdoptionPlan, { ok: true }>) {
  return { ...words, keywords: keywordsFor(adoptionKeywordQuery(plan, words)) };
}

function route(w: ReturnType<typeof workspace>, power = 'shared-notes') {
  const plan = planAdoption(power, w.mcpFile, w.home);
  assert.ok(plan.ok, JSON.stringify(plan));
  return adopt(plan, wordsFor(plan), w.data);
}

function mode(file: string): number {
  return fs.statSync(file).mode & 0o777;
}

/** Routes `key`, checks that only its entry left, undoes, checks the bytes and mode are back. */
function roundTrip(name: string, text: string | Buffer, power: string, fileMode?: number, key = power): void {
  const w = workspace(name, text);
  if (fileMode !== undefined) fs.chmodSync(w.mcpFile, fileMode);
  const before = fs.readFileSync(w.mcpFile);
  const adoption = route(w, power);
  const after = fs.readFileSync(w.mcpFile, 'utf8');
  const servers = (parseJsonc(after.replace(/^\uFEFF/, '')) as { servers: Record<string, unknown> }).servers;
  assert.ok(!(key in servers), `${name}: the entry left`);
  assert.deepEqual(
    Object.keys(servers),
    Object.keys((parseJsonc(before.toString('utf8').replace(/^\uFEFF/, '')) as { servers: object }).servers).filter(
      (k) => k !== key,
    ),
    `${name}: the others stay, in order`,
  );
  if (fileMode !== undefined) assert.equal(mode(w.mcpFile), fileMode, `${name}: mode kept after routing`);
  assert.equal(loadSpellFile(adoption.spellFile, { env }).power?.name, power, `${name}: the spell loads`);
  assert.deepEqual(undoAdoption(adoption, w.data).restored, 'exact');
  assert.ok(fs.readFileSync(w.mcpFile).equals(before), `${name}: byte for byte after the undo`);
  if (fileMode !== undefined) assert.equal(mode(w.mcpFile), fileMode, `${name}: mode kept after the undo`);
  assert.ok(!fs.existsSync(path.join(w.root, '.grimoire')), `${name}: the folder routing created is gone`);
}

describe('route through Grimoire alone', () => {
  test('one minimal edit: the comment above the next entry and every other byte stay; the spell loads as the same server', () => {
    const w = workspace('move');
    const imported = importVscodeMcp(w.mcpFile, { env, home: env.HOME }).powers.find((p) => p.name === 'shared-notes')!;
    const adoption = route(w);
    assert.equal(
      fs.readFileSync(w.mcpFile, 'utf8'),
      `{
  // Our team's servers.
  "servers": {
    // The other team's server: keep it.
    "other": { "command": "uvx", "args": ["other-server"] }
  }
}
`,
    );
    assert.equal(fs.readFileSync(adoption.backupFile, 'utf8'), MCP_JSON, 'the whole mcp.json, as it was');
    const spell = fs.readFileSync(adoption.spellFile, 'utf8');
    assert.match(
      spell,
      /\$\{workspaceFolder\}\/notes-server\.js/,
      'the variable stays a variable: the spell is portable',
    );
    assert.ok(!spell.includes(w.root), 'no absolute path of the workspace');
    assert.doesNotMatch(
      spell,
      /placeholder|TODO|steering|Guidance the agent/i,
      'no stale comment, no placeholder steering',
    );
    const loaded = loadSpellFile(adoption.spellFile, { env });
    assert.deepEqual(loaded.issues, []);
    assert.deepEqual(loaded.power?.problems, []);
    assert.equal(loaded.power?.description, words.description);
    assert.equal(
      serverIdentity(loaded.power!.server),
      serverIdentity(imported.server),
      'the same server: its activation carries over',
    );
    assert.deepEqual(
      adoptions(w.data).map((a) => a.power),
      ['shared-notes'],
    );
    for (const file of [adoption.backupFile, path.join(w.data, 'adoptions', 'adoptions.json')])
      assert.equal(mode(file), 0o600, `${file} is the user's alone`);

    const undone = undoAdoption(adoption, w.data);
    assert.equal(undone.restored, 'exact');
    assert.equal(undone.backupFile, adoption.backupFile, 'the undo says where the exact backup is');
    assert.deepEqual(undone.removedFolders, [path.join(w.root, '.grimoire')]);
    assert.equal(fs.readFileSync(w.mcpFile, 'utf8'), MCP_JSON);
    assert.ok(!fs.existsSync(path.join(w.root, '.grimoire')), 'the .grimoire folder routing made is gone');
    assert.deepEqual(adoptions(w.data), []);
  });

  test('route and undo, byte for byte, on the kinds of mcp.json users have', () => {
    roundTrip(
      'trailing-commas',
      '{\n  "servers": {\n    "a": { "command": "x", },\n    "b": { "command": "y", },\n  },\n}\n',
      'b',
    );
    roundTrip(
      'trailing-first',
      '{\n  "servers": {\n    "a": { "command": "x", },\n    "b": { "command": "y", },\n  },\n}\n',
      'a',
    );
    roundTrip(
      'crlf',
      '{\r\n  "servers": {\r\n    "a": { "command": "x" },\r\n    "b": { "command": "y" }\r\n  }\r\n}\r\n',
      'b',
    );
    roundTrip('bom', '\uFEFF{\n  "servers": {\n    "a": { "command": "x" }\n  }\n}\n', 'a');
    roundTrip(
      'odd-values',
      '{"servers":{"a":{"command":"x","args":["\\u00e9t\\u00e9", "1e3", ' +
        '"\\"q\\""],"env":{}},"b":{"command":"y","args":[]},"c":{"command":"z","args":["✓"]}},"inputs":[]}',
      'b',
    );
    roundTrip('one-line-last', '{ "servers": { "a": { "command": "x" }, "b": { "command": "y" } } }', 'b');
    roundTrip('read-only', MCP_JSON, 'shared-notes', 0o444, 'Shared Notes');
    roundTrip('private', MCP_JSON, 'shared-notes', 0o600, 'Shared Notes');
    roundTrip(
      'tabs',
      '{\n\t"servers": {\n\t\t/* first */ "a": { "command": "x" }, // a\n\t\t"b": { "command": "y" }\n\t}\n}',
      'a',
    );
  });

  test('a symlinked mcp.json stays a link: routing and the undo write its target', () => {
    const w = workspace('symlink');
    const target = path.join(w.root, 'shared-config', 'mcp.json');
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.renameSync(w.mcpFile, target);
    fs.symlinkSync(target, w.mcpFile);
    const adoption = route(w);
    assert.ok(fs.lstatSync(w.mcpFile).isSymbolicLink());
    assert.doesNotMatch(fs.readFileSync(target, 'utf8'), /Shared Notes/);
    undoAdoption(adoption, w.data);
    assert.ok(fs.lstatSync(w.mcpFile).isSymbolicLink());
    assert.equal(fs.readFileSync(target, 'utf8'), MCP_JSON);
  });

  test('a planted temporary symlink beside the file is never written through', () => {
    const w = workspace('planted');
    const victim = path.join(w.root, 'victim.txt');
    fs.writeFileSync(victim, 'untouched');
    for (const name of [`mcp.json.${process.pid}.grimoire-tmp`, 'mcp.json.tmp', '.grimoire-edit-'])
      fs.symlinkSync(victim, path.join(w.root, '.vscode', name));
    const adoption = route(w);
    undoAdoption(adoption, w.data);
    assert.equal(fs.readFileSync(victim, 'utf8'), 'untouched');
    assert.equal(fs.readFileSync(w.mcpFile, 'utf8'), MCP_JSON);
    assert.deepEqual(
      fs.readdirSync(path.join(w.root, '.vscode')).sort(),
      ['.grimoire-edit-', 'mcp.json', `mcp.json.${process.pid}.grimoire-tmp`, 'mcp.json.tmp'].sort(),
      'no temporary left behind',
    );
  });

  test('literal secrets go to 0600 files outside the workspace; the spell names them and loads the same server', () => {
    const text = JSON.stringify(
      {
        servers: {
          vault: {
            command: 'node',
            args: ['v.js'],
            env: { API_KEY: 'sk-live-1234567890abcdef', MODE: 'team', GITHUB_TOKEN: '${env:GH}' },
          },
          remote: {
            type: 'http',
            url: 'https://x.example/mcp',
            headers: { Authorization: 'Bearer abc.def.secret-value', Accept: 'json' },
          },
        },
      },
      null,
      2,
    );
    const w = workspace('secrets', text);
    const vault = route(w, 'vault');
    const remote = route(w, 'remote');
    for (const adoption of [vault, remote]) {
      const spell = fs.readFileSync(adoption.spellFile, 'utf8');
      assert.doesNotMatch(spell, /sk-live|abc\.def/, 'no literal secret in the workspace');
      for (const file of adoption.secretFiles) {
        assert.equal(mode(file), 0o600);
        assert.ok(!file.startsWith(w.root + path.sep + '.grimoire'));
      }
    }
    const vaultSpell = fs.readFileSync(vault.spellFile, 'utf8');
    assert.match(vaultSpell, /\$\{secret:vault\.API_KEY\}/);
    assert.match(vaultSpell, /"MODE": "team"/, 'a value that is no secret is copied');
    assert.match(vaultSpell, /\$\{GH\}/, 'a variable stays a variable');
    const ctx = { env: { ...env, GH: 'gh-value', GRIMOIRE_DATA: w.data } };
    const loadedVault = loadSpellFile(vault.spellFile, ctx).power!;
    assert.deepEqual(loadedVault.problems, []);
    assert.equal(
      loadedVault.server.transport === 'stdio' && loadedVault.server.env.API_KEY,
      'sk-live-1234567890abcdef',
      'the gateway reads the secret back',
    );
    const loadedRemote = loadSpellFile(remote.spellFile, ctx).power!;
    assert.equal(
      loadedRemote.server.transport !== 'stdio' && loadedRemote.server.headers.Authorization,
      'Bearer abc.def.secret-value',
    );
    const imported = importVscodeMcp(w.mcpFile.replace('mcp.json', 'none.json'), { env: ctx.env });
    assert.equal(imported.powers.length, 0);
    assert.equal(mode(vault.backupFile), 0o600, 'the backup holds the secret: mode 0600');
    undoAdoption(remote, w.data);
    undoAdoption(vault, w.data);
    assert.equal(fs.readFileSync(w.mcpFile, 'utf8'), text);
    for (const file of [...vault.secretFiles, ...remote.secretFiles])
      assert.ok(!fs.existsSync(file), 'the undo removes the secret files it made');
  });

  test('secrets in arguments and in the URL are kept out of the spell too; the spell is still the same server', () => {
    const text = JSON.stringify(
      {
        servers: {
          cli: {
            command: 'node',
            args: [
              'srv.js',
              '--api-key=sk-live-abcdef1234567890',
              '--token',
              'tok-literal-42',
              '--mode',
              'fast',
              '--password=${env:PW}',
              '--repo-access=ghp_abcdefghijklmnopqrstuvwxyz0123',
            ],
            env: { CONFIG: 'xoxb-1234567890-abcdefghij' },
          },
          hosted: { type: 'http', url: 'https://bot:hunter2-pass@x.example/mcp?api_key=qk-998877&region=eu' },
        },
      },
      null,
      2,
    );
    const w = workspace('secret-args', text);
    const ctx = { env: { ...env, PW: 'from-env', GRIMOIRE_DATA: w.data } };
    const imported = importVscodeMcp(w.mcpFile, { env: ctx.env });
    for (const power of ['cli', 'hosted']) {
      const adoption = route(w, power);
      const spell = fs.readFileSync(adoption.spellFile, 'utf8');
      assert.doesNotMatch(
        spell,
        /sk-live|tok-literal|hunter2|qk-998877|ghp_|xoxb-/,
        `${power}: no literal secret in the spell`,
      );
      assert.match(
        spell,
        power === 'cli' ? /"--mode", "fast", "--password=\$\{PW\}"/ : /region=eu/,
        'what is no secret stays as it was',
      );
      const loaded = loadSpellFile(adoption.spellFile, ctx).power!;
      assert.deepEqual(loaded.problems, []);
      assert.equal(
        serverIdentity(loaded.server),
        serverIdentity(imported.powers.find((p) => p.name === power)!.server),
        `${power}: the same server`,
      );
    }
  });

  test('a secret file of the same name is never overwritten: another value gets a name of its own', () => {
    const w = workspace(
      'secret-taken',
      JSON.stringify({ servers: { vault: { command: 'node', env: { API_KEY: 'sk-live-1234567890abcdef' } } } }),
    );
    const taken = writeSecret(secretsFolder(w.data), 'vault.API_KEY', 'someone-else');
    const adoption = route(w, 'vault');
    assert.equal(fs.readFileSync(taken, 'utf8'), 'someone-else');
    assert.deepEqual(adoption.secretFiles, [`${taken}-2`]);
    assert.match(fs.readFileSync(adoption.spellFile, 'utf8'), /\$\{secret:vault\.API_KEY-2\}/);
    undoAdoption(adoption, w.data);
    assert.ok(fs.existsSync(taken) && !fs.existsSync(`${taken}-2`));
  });

  test('a secret file readable by others is refused with the fix', () => {
    const w = workspace(
      'loose',
      JSON.stringify({ servers: { vault: { command: 'node', env: { API_KEY: 'sk-live-1234567890abcdef' } } } }),
    );
    const adoption = route(w, 'vault');
    fs.chmodSync(adoption.secretFiles[0]!, 0o644);
    const problems = loadSpellFile(adoption.spellFile, { env: { ...env, GRIMOIRE_DATA: w.data } }).power!.problems;
    assert.match(problems.join('\n'), /can be read by others \(mode 644\): run chmod 600/);
  });

  test('an unwritable .vscode leaves nothing half done: no spell, folder, backup or record', (t) => {
    const w = workspace('unwritable');
    const vscodeDir = path.dirname(w.mcpFile);
    const root = process.getuid?.() === 0;
    try {
      if (root) execFileSync('chattr', ['+i', vscodeDir]);
      else fs.chmodSync(vscodeDir, 0o555);
    } catch (error) {
      t.skip(`cannot make a folder unwritable here: ${(error as Error).message}`);
      return;
    }
    try {
      const plan = planAdoption('shared-notes', w.mcpFile, w.home);
      assert.ok(plan.ok);
      assert.throws(
        () => adopt(plan, wordsFor(plan), w.data),
        (error: unknown) =>
          error instanceof AdoptionError &&
          /nothing was changed: a file or folder cannot be written/.test(error.message),
      );
    } finally {
      if (root) execFileSync('chattr', ['-i', vscodeDir]);
      else fs.chmodSync(vscodeDir, 0o755);
    }
    assert.equal(fs.readFileSync(w.mcpFile, 'utf8'), MCP_JSON);
    assert.ok(!fs.existsSync(path.join(w.root, '.grimoire')), 'no spell, no folder');
    assert.deepEqual(
      fs.existsSync(path.join(w.data, 'adoptions')) ? fs.readdirSync(path.join(w.data, 'adoptions')) : [],
      [],
      'no backup, no record',
    );
  });

  test('a damaged adoptions.json is set aside, never overwritten', () => {
    const w = workspace('damaged');
    const first = route(w);
    const records = path.join(w.data, 'adoptions', 'adoptions.json');
    const damaged = fs.readFileSync(records, 'utf8').slice(0, 40);
    fs.writeFileSync(records, damaged);
    assert.match(readRecords(w.data).damaged ?? '', /damaged/);
    fs.writeFileSync(w.mcpFile, MCP_JSON);
    fs.rmSync(first.spellFile);
    const second = route(w);
    assert.ok(second.recordsSetAside);
    assert.equal(fs.readFileSync(second.recordsSetAside!, 'utf8'), damaged, 'the damaged file is kept as it was');
    assert.deepEqual(
      adoptions(w.data).map((a) => a.power),
      ['shared-notes'],
    );
  });

  test('an entry changed after consent is not moved (asked again); a file changed after routing gets the entry back at its place', () => {
    const w = workspace('concurrent');
    const plan = planAdoption('shared-notes', w.mcpFile, w.home);
    assert.ok(plan.ok);
    fs.writeFileSync(w.mcpFile, MCP_JSON.replace('"MODE": "team"', '"MODE": "solo"'));
    assert.throws(
      () => adopt(plan, wordsFor(plan), w.data),
      (error: unknown) => error instanceof AdoptionError && error.stale,
    );
    assert.ok(!fs.existsSync(plan.spellFile));
    assert.ok(
      !fs.existsSync(path.join(w.data, 'adoptions')) || fs.readdirSync(path.join(w.data, 'adoptions')).length === 0,
    );

    fs.writeFileSync(w.mcpFile, MCP_JSON);
    const adoption = route(w);
    // Another save after the move: a new server at the end.
    const edited = fs
      .readFileSync(w.mcpFile, 'utf8')
      .replace('"args": ["other-server"] }', '"args": ["other-server"] },\n    "third": { "command": "t" }');
    fs.writeFileSync(w.mcpFile, edited);
    assert.equal(undoAdoption(adoption, w.data).restored, 'entry');
    assert.equal(
      fs.readFileSync(w.mcpFile, 'utf8'),
      MCP_JSON.replace('"args": ["other-server"] }', '"args": ["other-server"] },\n    "third": { "command": "t" }'),
      'the entry is back at its own place; the other save is kept',
    );
  });

  test('another save while routing is read again and kept: the entry leaves the file as it is at the moment of writing', () => {
    const w = workspace('save-during');
    const plan = planAdoption('shared-notes', w.mcpFile, w.home);
    assert.ok(plan.ok);
    // The other writer saves right when routing prepares its write (after the backup and the spell); `nodeFs` is the module object itself.
    const mkdtemp = nodeFs.mkdtempSync;
    let saved = false;
    nodeFs.mkdtempSync = ((prefix: string, options?: unknown) => {
      if (!saved) {
        saved = true;
        fs.writeFileSync(w.mcpFile, MCP_JSON.replace('"other": { "command": "uvx"', '"other": { "command": "pipx"'));
      }
      return (mkdtemp as (p: string, o?: unknown) => string)(prefix, options);
    }) as typeof fs.mkdtempSync;
    let adoption;
    try {
      adoption = adopt(plan, wordsFor(plan), w.data);
    } finally {
      nodeFs.mkdtempSync = mkdtemp;
    }
    assert.ok(saved, 'the other save happened during routing');
    const after = fs.readFileSync(w.mcpFile, 'utf8');
    assert.match(after, /"command": "pipx"/, 'the other save is kept');
    assert.doesNotMatch(after, /Shared Notes/);
    assert.match(
      fs.readFileSync(adoption.backupFile, 'utf8'),
      /"command": "pipx"/,
      'the backup is of the file that was edited',
    );
    undoAdoption(adoption, w.data);
    assert.equal(
      fs.readFileSync(w.mcpFile, 'utf8'),
      MCP_JSON.replace('"other": { "command": "uvx"', '"other": { "command": "pipx"'),
    );
  });

  test('a record of the earlier version is no damage: its undo puts the entry back', () => {
    const w = workspace('legacy', '{\n  "servers": {\n    "other": { "command": "uvx" }\n  }\n}\n');
    const spellFile = scratch.write('legacy/.grimoire/notes.spell.yaml', 'name: notes\n');
    const backupFile = scratch.write('legacy/data/adoptions/old-notes-mcp.json', MCP_JSON);
    const legacy = {
      power: 'notes',
      mcpFile: w.mcpFile,
      key: 'notes',
      entry: { command: 'node', args: ['n.js'] },
      spellFile,
      spellHash: shortHash('name: notes\n'),
      backupFile,
      at: '2026-11-01T00:00:00.000Z',
    };
    scratch.write('legacy/data/adoptions/adoptions.json', JSON.stringify([legacy]));
    const { records, damaged } = readRecords(w.data);
    assert.equal(damaged, undefined);
    assert.equal(undoAdoption(records[0]!, w.data).restored, 'entry');
    assert.deepEqual((parseJsonc(fs.readFileSync(w.mcpFile, 'utf8')) as { servers: object }).servers, {
      other: { command: 'uvx' },
      notes: { command: 'node', args: ['n.js'] },
    });
    assert.ok(!fs.existsSync(spellFile));
    assert.deepEqual(adoptions(w.data), []);
  });

  test('a save by another writer between read and rename is never overwritten', () => {
    const w = workspace('race');
    assert.equal(
      replaceFile(w.mcpFile, 'not this', () => false),
      false,
    );
    assert.equal(fs.readFileSync(w.mcpFile, 'utf8'), MCP_JSON);
    assert.deepEqual(fs.readdirSync(path.dirname(w.mcpFile)), ['mcp.json'], 'no temporary left');
  });

  test('a huge mcp.json is refused with the reason, not parsed', () => {
    const w = workspace('huge', `{"servers":{"a":{"command":"x"}},"pad":"${'x'.repeat(2 * 1024 * 1024)}"}`);
    const plan = planAdoption('a', w.mcpFile, w.home);
    assert.ok(!plan.ok);
    assert.match(plan.message, /has 2\.0 MB; Grimoire edits an mcp\.json of up to 256 KB: move the entry by hand/);
  });

  test('a spell edited since the move is kept by the undo; an entry put back by hand is left alone', () => {
    const w = workspace('edited');
    const adoption = route(w);
    fs.appendFileSync(adoption.spellFile, '# my own note\n');
    fs.writeFileSync(w.mcpFile, MCP_JSON.replace('Our team', 'My team'));
    const undone = undoAdoption(adoption, w.data);
    assert.equal(undone.restored, 'present');
    assert.equal(undone.keptSpell, adoption.spellFile);
    assert.equal(fs.readFileSync(w.mcpFile, 'utf8'), MCP_JSON.replace('Our team', 'My team'));
    assert.ok(fs.existsSync(adoption.spellFile));
  });

  test(
    'a spell replaced by a FIFO since the move is kept by the undo, not waited on',
    { skip: process.platform === 'win32' && 'FIFOs are POSIX' },
    () => {
      const w = workspace('fifo-spell');
      const adoption = route(w);
      fs.rmSync(adoption.spellFile);
      execFileSync('mkfifo', [adoption.spellFile]);
      const undone = undoAdoption(adoption, w.data);
      assert.equal(undone.restored, 'exact');
      assert.equal(undone.keptSpell, adoption.spellFile, 'what is there now is not the spell routing wrote');
      assert.equal(fs.readFileSync(w.mcpFile, 'utf8'), MCP_JSON);
    },
  );

  test('refuses what a spell cannot say, and never overwrites a spell', () => {
    const input = workspace(
      'input',
      JSON.stringify({ servers: { asks: { command: 'x', env: { KEY: '${input:key}' } } } }),
    );
    assert.match(
      (planAdoption('asks', input.mcpFile, input.home) as { message: string }).message,
      /asks VS Code for an input/,
    );
    const envFile = workspace(
      'envfile',
      JSON.stringify({ servers: { reads: { command: 'x', envFile: '${workspaceFolder}/.env' } } }),
    );
    assert.match(
      (planAdoption('reads', envFile.mcpFile, envFile.home) as { message: string }).message,
      /reads an envFile/,
    );
    const taken = workspace('taken');
    scratch.write('taken/.grimoire/shared-notes.spell.yaml', 'name: shared-notes\n');
    assert.match(
      (planAdoption('shared-notes', taken.mcpFile, taken.home) as { message: string }).message,
      /already exists/,
    );
    assert.match(
      (planAdoption('nobody', taken.mcpFile, taken.home) as { message: string }).message,
      /has no server that becomes the power "nobody"/,
    );
    for (const w of [input, envFile, taken]) assert.deepEqual(adoptions(w.data), [], 'nothing moved');
  });

  test("the user's own mcp.json moves into the Grimoire home", () => {
    assert.equal(spellFolderFor('/home/u/.config/Code/User/mcp.json', '/home/u/.grimoire'), '/home/u/.grimoire');
    assert.equal(spellFolderFor('/w/.vscode/mcp.json', '/home/u/.grimoire'), '/w/.grimoire');
  });
});
