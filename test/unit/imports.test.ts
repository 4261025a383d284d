import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { scratchFolder } from '../helpers/temp.js';
import { redact } from '../../server/log.js';
import { deriveFromTools } from '../../server/powers/derive.js';
import { importClaudeDesktop } from '../../server/powers/import-claude.js';
import { serverIdentity } from '../../server/powers/import-common.js';
import { normalizeName } from '../../shared/power-name.js';
import { demoPaths } from '../../server/config/paths.js';
import { defaultImportLocations } from '../../server/powers/import-locations.js';
import { importVscodeMcp } from '../../server/powers/import-vscode.js';
import { parseJsonc } from '../../shared/jsonc.js';
import { PowerRegistry } from '../../server/powers/registry.js';
import type { PowerDefinition } from '../../server/powers/types.js';

const scratch = scratchFolder('grimoire-imports-');
const write = scratch.write;

const VSCODE = `// user MCP servers
{
  "inputs": [{ "type": "promptString", "id": "api-key", "password": true }],
  "servers": {
    /* a local one */
    "My Files": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "\${workspaceFolder}/src", "\${userHome}//notes"], // trailing comma next
      "env": { "TOKEN": "\${env:FS_TOKEN}", "LEVEL": 3, },
    },
    "remote": { "type": "http", "url": "https://mcp.example.com/mcp", "headers": { "Authorization": "Bearer \${input:api-key}" } },
    "events": { "type": "sse", "url": "https://events.example.com/sse" },
    "broken": { "type": "stdio" },
  },
}
`;

describe('JSONC', () => {
  test('comments and trailing commas are ignored, strings are kept', () => {
    assert.deepEqual(parseJsonc('{ "a": "http://x//y /* no */", // c\n "b": [1, 2,], /* x */ }'), {
      a: 'http://x//y /* no */',
      b: [1, 2],
    });
  });
  test('a syntax error names the line and column', () => {
    assert.throws(() => parseJsonc('{\n  "a": 1\n  "b": 2\n}'), /line 3, column 3/);
  });
});

describe('VS Code mcp.json', () => {
  test('stdio, http and sse entries with variables', () => {
    const file = write('Code/User/mcp.json', VSCODE);
    const { powers, issues } = importVscodeMcp(file, {
      env: { FS_TOKEN: 'fs-token-secret' },
      workspaceFolder: '/ws',
      home: '/home/u',
    });
    assert.deepEqual(
      powers.map((p) => p.name),
      ['my-files', 'remote', 'events'],
    );
    const [files, remote, events] = powers;
    assert.deepEqual(files.server, {
      transport: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/ws/src', '/home/u//notes'],
      env: { TOKEN: 'fs-token-secret', LEVEL: '3' },
    });
    assert.deepEqual(files.problems, []);
    assert.equal(files.description, 'The my-files MCP server (its tools are not listed yet)');
    assert.ok(!files.description.includes(file), 'the description never names the config file');
    assert.deepEqual(files.keywords, []);
    assert.equal(files.derivedFromTools, true);
    assert.deepEqual(files.source, { kind: 'vscode-mcp', file, readOnly: true });
    assert.deepEqual(remote.server, {
      transport: 'http',
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: 'Bearer ' },
    });
    assert.equal(remote.problems.length, 1);
    assert.match(
      remote.problems[0],
      /\$\{input:api-key\}.*servers\.remote\.headers\.Authorization.*environment variable.*spell/,
    );
    assert.deepEqual(events.server, { transport: 'sse', url: 'https://events.example.com/sse', headers: {} });
    assert.equal(issues.length, 1);
    assert.equal(issues[0].field, 'servers.broken.command');
    assert.equal(redact('fs-token-secret'), '***');
  });

  test('an unset ${env:X} and a missing workspace folder are problems', () => {
    const file = write(
      'plain/mcp.json',
      '{"servers": {"a": {"command": "x", "args": ["${workspaceFolder}"], "env": {"K": "${env:NOPE_NOT_SET}"}}}}',
    );
    const [power] = importVscodeMcp(file, { env: {} }).powers;
    assert.equal(power.problems.length, 2);
    assert.match(power.problems.join('\n'), /NOPE_NOT_SET is not set \(used in servers\.a\.env\.K\)/);
    assert.match(power.problems.join('\n'), /\$\{workspaceFolder\} has no value/);
  });

  test('a workspace .vscode/mcp.json knows its folder; envFile is read', () => {
    write('proj/.env', '# comment\nexport A=1\nB="two words"\n');
    const file = write(
      'proj/.vscode/mcp.json',
      '{"servers": {"a": {"command": "${workspaceFolder}/bin", "envFile": "${workspaceFolder}/.env", "env": {"B": "override"}}}}',
    );
    const [power] = importVscodeMcp(file, { env: {} }).powers;
    assert.deepEqual(power.server, {
      transport: 'stdio',
      command: path.join(scratch.root(), 'proj') + '/bin',
      args: [],
      env: { A: '1', B: 'override' },
    });
    assert.deepEqual(power.problems, []);
  });

  test('a missing file is skipped silently, a malformed one is an issue', () => {
    assert.deepEqual(importVscodeMcp(path.join(scratch.root(), 'none.json'), { env: {} }), { powers: [], issues: [] });
    const bad = importVscodeMcp(write('bad/mcp.json', '{ "servers": { "a": } }'), { env: {} });
    assert.equal(bad.powers.length, 0);
    assert.equal(bad.issues.length, 1);
    assert.match(bad.issues[0].message, /invalid JSON at line 1, column/);
    const wrongShape = importVscodeMcp(write('shape/mcp.json', '{ "servers": [] }'), { env: {} });
    assert.equal(wrongShape.issues[0].field, 'servers');
  });
});

describe('Claude Desktop config', () => {
  test('stdio and url entries, no expansion', () => {
    const file = write(
      'Claude/claude_desktop_config.json',
      JSON.stringify({
        mcpServers: {
          memory: {
            command: 'npx',
            args: ['-y', '@modelcontextprotocol/server-memory'],
            env: { MEMORY_FILE: '${HOME}/m.json' },
          },
          'Remote.API': { url: 'https://api.example.com/mcp', headers: { 'X-Key': 'k-98765' } },
          nothing: {},
        },
        globalShortcut: 'Ctrl+Space',
      }),
    );
    const { powers, issues } = importClaudeDesktop(file);
    assert.deepEqual(
      powers.map((p) => p.name),
      ['memory', 'remote-api'],
    );
    assert.deepEqual(powers[0].server, {
      transport: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-memory'],
      env: { MEMORY_FILE: '${HOME}/m.json' },
    });
    assert.deepEqual(powers[1].server, {
      transport: 'http',
      url: 'https://api.example.com/mcp',
      headers: { 'X-Key': 'k-98765' },
    });
    assert.equal(powers[1].source.kind, 'claude-desktop');
    assert.equal(powers[1].source.readOnly, true);
    assert.equal(issues.length, 1);
    assert.equal(issues[0].field, 'mcpServers.nothing');
  });
});

describe('names', () => {
  test('normalisation', () => {
    assert.equal(normalizeName('My Files'), 'my-files');
    assert.equal(normalizeName('  GitHub__Enterprise!! '), 'github-enterprise');
    assert.equal(normalizeName('a.b/c'), 'a-b-c');
    assert.equal(normalizeName('***'), '');
  });

  test('a clash within a file: the first wins, the second is an issue', () => {
    const file = write(
      'clash/claude.json',
      JSON.stringify({
        mcpServers: { 'Git Hub': { command: 'a' }, 'git-hub': { command: 'b' }, '!!!': { command: 'c' } },
      }),
    );
    const { powers, issues } = importClaudeDesktop(file);
    assert.deepEqual(
      powers.map((p) => [p.name, p.server.transport === 'stdio' && p.server.command]),
      [['git-hub', 'a']],
    );
    assert.equal(issues.length, 2);
    assert.match(issues[0].message, /"git-hub" is ignored.*"Git Hub"/);
    assert.match(issues[1].message, /no letters or digits/);
  });

  test('in a registry, spells win over imports and the clash names both files', () => {
    const spells = path.join(scratch.root(), 'reg-spells');
    fs.mkdirSync(spells);
    fs.writeFileSync(
      path.join(spells, 'memory.spell.yaml'),
      'name: memory\nversion: "1"\ndescription: d\nkeywords: [a, b, c]\nserver:\n  command: node\n',
    );
    const claude = write(
      'reg/claude.json',
      JSON.stringify({ mcpServers: { memory: { command: 'npx' }, other: { command: 'npx' } } }),
    );
    const vscode = write(
      'reg/mcp.json',
      JSON.stringify({ servers: { other: { command: 'uvx' }, third: { url: 'https://x.example/mcp' } } }),
    );
    const registry = new PowerRegistry({
      spellDirs: [spells],
      importFiles: [
        { kind: 'claude-desktop', file: claude },
        { kind: 'vscode-mcp', file: vscode },
        { kind: 'vscode-mcp', file: path.join(scratch.root(), 'absent.json') },
      ],
      env: {},
    });
    const snapshot = registry.load();
    assert.deepEqual(
      snapshot.powers.map((p) => [p.name, p.source.kind]),
      [
        ['memory', 'spell'],
        ['other', 'claude-desktop'],
        ['third', 'vscode-mcp'],
      ],
    );
    assert.equal(snapshot.issues.length, 2);
    assert.ok(
      snapshot.issues[0].message.includes(claude) &&
        snapshot.issues[0].message.includes(path.join(spells, 'memory.spell.yaml')),
    );
    assert.ok(snapshot.issues[1].message.includes(vscode) && snapshot.issues[1].message.includes(claude));
  });
});

describe('default import locations', () => {
  test('per platform', () => {
    assert.deepEqual(defaultImportLocations('/home/u', 'linux', {}), [
      { kind: 'vscode-mcp', file: '/home/u/.config/Code/User/mcp.json' },
      { kind: 'claude-desktop', file: '/home/u/.config/Claude/claude_desktop_config.json' },
      { kind: 'cursor-mcp', file: '/home/u/.cursor/mcp.json' },
      { kind: 'kiro-power', file: '/home/u/.kiro/powers' },
    ]);
    assert.equal(
      defaultImportLocations('/Users/u', 'darwin', {})[1].file,
      '/Users/u/Library/Application Support/Claude/claude_desktop_config.json',
    );
    assert.equal(
      defaultImportLocations('C:\\Users\\u', 'win32', { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' })[0].file,
      'C:\\Users\\u\\AppData\\Roaming\\Code\\User\\mcp.json',
    );
    assert.equal(defaultImportLocations('/home/u', 'linux', {}, '/ws')[0].file, '/ws/.vscode/mcp.json');
  });
});

describe('derived description and keywords', () => {
  const power = { name: 'my-files', description: 'Imported from x' } as PowerDefinition;
  const tools = [
    { name: 'read_file', description: 'Read the complete contents of a file from the file system. Handles encodings.' },
    { name: 'write_file', description: 'Create a new file or overwrite an existing file.' },
    { name: 'listDirectory', description: 'List the entries of a directory.' },
    { name: 'search-files', description: 'Search files by pattern.' },
  ];

  test('description: one sentence about the whole server, from what its tools are mostly about (one word per stem)', () => {
    const { description } = deriveFromTools(power, tools);
    assert.equal(description, 'my-files: 4 tools about file, read, directory, search and write.');
  });

  test("description: the server's own words first, led by its title; instructions are not a description", () => {
    assert.equal(
      deriveFromTools(power, tools, {
        title: 'Secure Filesystem',
        description: 'Files in the folders you allow. More text.',
      }).description,
      'Secure Filesystem: Files in the folders you allow.',
    );
    assert.equal(
      deriveFromTools(power, tools, { title: 'Secure Filesystem' }).description,
      'Secure Filesystem: 4 tools about file, read, directory, search and write.',
    );
    assert.equal(
      deriveFromTools(power, tools, { instructions: 'Call read_file first.' }).description,
      'my-files: 4 tools about file, read, directory, search and write.',
    );
  });

  test('keywords: frequent informative words, no stop words, 3 to 20, deterministic', () => {
    const { keywords } = deriveFromTools(power, tools);
    assert.equal(keywords[0], 'file');
    for (const w of ['read', 'write', 'directory', 'search', 'files']) assert.ok(keywords.includes(w), w);
    for (const w of ['the', 'a', 'of', 'list', 'new']) assert.ok(!keywords.includes(w), w);
    assert.ok(keywords.length >= 3 && keywords.length <= 20);
    assert.deepEqual(deriveFromTools(power, [...tools]).keywords, keywords);
  });

  test('many tools cap the list; few words are topped up to 3', () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ name: `tool_${String.fromCharCode(97 + (i % 26))}word${i}` }));
    const result = deriveFromTools(power, many);
    assert.equal(
      result.description,
      'my-files: 30 tools about aword0, bword1, cword2, dword3 and eword4.',
      'five words, however many tools',
    );
    assert.equal(result.keywords.length, 20);
    assert.deepEqual(deriveFromTools(power, [{ name: 'ping' }]).keywords, ['ping', 'files', 'my-files']);
  });
});

describe("the user's configuration wins over the demo powers", () => {
  const demoVars = (data: string) => ({
    GRIMOIRE_NODE: process.execPath,
    GRIMOIRE_DEMO_MODULES: '/demo/modules',
    GRIMOIRE_DEMO_PROJECT: '/demo/project',
    GRIMOIRE_DATA: data,
  });
  const demo = (data: string) => [{ dir: demoPaths.spells, kind: 'demo' as const, vars: demoVars(data) }];

  test("a workspace mcp.json server named like a demo power is the user's, with no issue", () => {
    const mcp = write(
      'demo-wins/.vscode/mcp.json',
      JSON.stringify({ servers: { memory: { command: 'uvx', args: ['my-memory'] } } }),
    );
    const snapshot = new PowerRegistry({
      spellDirs: [],
      importFiles: [{ kind: 'vscode-mcp', file: mcp }],
      extraSpellDirs: demo('/data'),
      env: {},
    }).load();
    const memory = snapshot.powers.find((p) => p.name === 'memory')!;
    assert.equal(memory.source.kind, 'vscode-mcp');
    assert.deepEqual(memory.server.transport === 'stdio' && memory.server.args, ['my-memory']);
    assert.deepEqual(
      snapshot.powers
        .filter((p) => p.source.kind === 'demo')
        .map((p) => p.name)
        .sort(),
      ['everything', 'filesystem'],
    );
    assert.deepEqual(snapshot.issues, []);
  });

  test("the demo's own command and arguments with the user's env stay the user's server, env kept", () => {
    const args = ['/demo/modules/@modelcontextprotocol/server-memory/dist/index.js'];
    const mcp = write(
      'demo-env/.vscode/mcp.json',
      JSON.stringify({
        servers: { notes: { command: process.execPath, args, env: { MEMORY_FILE_PATH: '/mine/notes.jsonl' } } },
      }),
    );
    const snapshot = new PowerRegistry({
      spellDirs: [],
      importFiles: [{ kind: 'vscode-mcp', file: mcp }],
      extraSpellDirs: demo('/data'),
      env: {},
    }).load();
    const notes = snapshot.powers.find((p) => p.name === 'notes');
    assert.ok(notes, snapshot.powers.map((p) => p.name).join(', '));
    assert.equal(notes.server.transport === 'stdio' && notes.server.env.MEMORY_FILE_PATH, '/mine/notes.jsonl');
    assert.notEqual(
      serverIdentity(notes.server),
      serverIdentity(snapshot.powers.find((p) => p.name === 'memory')!.server),
    );
    // Named like the demo, with the same command and arguments but its own env: still the user's.
    const named = write(
      'demo-env-named/.vscode/mcp.json',
      JSON.stringify({
        servers: { memory: { command: process.execPath, args, env: { MEMORY_FILE_PATH: '/mine/notes.jsonl' } } },
      }),
    );
    const again = new PowerRegistry({
      spellDirs: [],
      importFiles: [{ kind: 'vscode-mcp', file: named }],
      extraSpellDirs: demo('/data'),
      env: {},
    }).load();
    const memory = again.powers.find((p) => p.name === 'memory')!;
    assert.equal(memory.source.kind, 'vscode-mcp');
    assert.equal(memory.server.transport === 'stdio' && memory.server.env.MEMORY_FILE_PATH, '/mine/notes.jsonl');
  });

  test('the same command in two configs is one power only with the same env; with another env the clash is reported', () => {
    const a = write(
      'two-env/claude.json',
      JSON.stringify({ mcpServers: { mem: { command: 'npx', args: ['m'], env: { F: '1' } } } }),
    );
    const same = write(
      'two-env/same.json',
      JSON.stringify({ servers: { mem: { command: 'npx', args: ['m'], env: { F: '1' } } } }),
    );
    const other = write(
      'two-env/other.json',
      JSON.stringify({ servers: { mem: { command: 'npx', args: ['m'], env: { F: '2' } } } }),
    );
    const load = (file: string) =>
      new PowerRegistry({
        spellDirs: [],
        importFiles: [
          { kind: 'claude-desktop', file: a },
          { kind: 'vscode-mcp', file },
        ],
        env: {},
      }).load();
    assert.deepEqual(load(same).issues, []);
    const clash = load(other);
    assert.equal(clash.powers.length, 1);
    assert.match(clash.issues[0]?.message ?? '', /"mem" .* is ignored/);
  });
});
