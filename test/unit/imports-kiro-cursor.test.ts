import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { scratchFolder } from '../helpers/temp.js';
import { describePower } from '../../server/gateway/power-documents.js';
import { importCursorMcp } from '../../server/powers/import-cursor.js';
import { importKiroPowers } from '../../server/powers/import-kiro.js';
import { defaultImportLocations, enabledImportLocations } from '../../server/powers/import-locations.js';
import { PowerRegistry } from '../../server/powers/registry.js';

const scratch = scratchFolder('grimoire-imports-kc-');
const write = scratch.write;

describe('Kiro power folders', () => {
  test('POWER.md front matter gives name, description, keywords; its body is the steering; mcp.json the server', () => {
    const powers = path.join(scratch.root(), 'kiro-a', '.kiro', 'powers');
    write(
      'kiro-a/.kiro/powers/supabase-local/POWER.md',
      [
        '---',
        'name: "supabase"',
        'displayName: "Supabase with local CLI"',
        'description: "Build fullstack applications with Postgres, auth and storage"',
        'keywords: ["database", "postgres", "auth"]',
        'author: "Supabase"',
        '---',
        '# Onboarding',
        '',
        'Check that Docker runs before starting the local stack.',
      ].join('\n'),
    );
    const mcp = write(
      'kiro-a/.kiro/powers/supabase-local/mcp.json',
      JSON.stringify({
        mcpServers: { 'supabase-local': { command: 'npx', args: ['-y', '@supabase/mcp'], env: { TOKEN: 'x' } } },
      }),
    );
    write(
      'kiro-a/.kiro/powers/knowledge-only/POWER.md',
      '---\nname: docs\ndescription: Only guidance\nkeywords: [a]\n---\nRead this.',
    );
    write(
      'kiro-a/.kiro/powers/figma/POWER.md',
      '---\nname: figma\ndescription: Design files\nkeywords: [design, figma, ui]\n---\nUse frames.',
    );
    write(
      'kiro-a/.kiro/powers/figma/mcp.json',
      JSON.stringify({
        mcpServers: { figma: { url: 'https://mcp.figma.example/mcp' }, old: { command: 'x', disabled: true } },
      }),
    );
    write('kiro-a/.kiro/powers/not-a-power/readme.txt', 'no POWER.md here');

    const { powers: found, issues } = importKiroPowers(powers);
    assert.deepEqual(issues, []);
    assert.deepEqual(
      found.map((p) => p.name),
      ['figma', 'supabase'],
    );
    const supabase = found[1];
    assert.equal(
      supabase.description,
      'Supabase with local CLI: Build fullstack applications with Postgres, auth and storage',
    );
    assert.deepEqual(supabase.keywords, ['database', 'postgres', 'auth']);
    assert.equal(supabase.steering, '# Onboarding\n\nCheck that Docker runs before starting the local stack.');
    assert.deepEqual(supabase.server, {
      transport: 'stdio',
      command: 'npx',
      args: ['-y', '@supabase/mcp'],
      env: { TOKEN: 'x' },
    });
    assert.deepEqual(supabase.source, { kind: 'kiro-power', file: mcp, readOnly: true });
    assert.equal(supabase.derivedFromTools, false);
    assert.deepEqual(found[0].server, { transport: 'http', url: 'https://mcp.figma.example/mcp', headers: {} });
  });

  test('several servers in one power give <power>-<server>; a POWER.md without description takes its words from the tools', () => {
    const dir = path.join(scratch.root(), 'kiro-b');
    write('kiro-b/aws/POWER.md', 'No front matter at all.');
    write(
      'kiro-b/aws/mcp.json',
      JSON.stringify({
        mcpServers: { docs: { command: 'uvx', args: ['docs'] }, 'iac server': { command: 'uvx', args: ['iac'] } },
      }),
    );
    const { powers, issues } = importKiroPowers(dir);
    assert.deepEqual(issues, []);
    assert.deepEqual(
      powers.map((p) => p.name),
      ['aws-docs', 'aws-iac-server'],
    );
    assert.equal(powers[0].derivedFromTools, true);
    assert.equal(powers[0].steering, 'No front matter at all.');
    const words = describePower(powers[0], [
      { name: 'search_documentation', description: 'Search the AWS documentation.', inputSchema: { type: 'object' } },
    ]);
    assert.equal(
      words.description,
      'aws-docs: 1 tool about search, documentation and aws.',
      'one sentence about the server, from its tools',
    );
    assert.ok(words.keywords.includes('documentation'), words.keywords.join(','));
  });

  test('broken YAML and broken JSON are issues of their own file; a missing folder is no issue', () => {
    write('kiro-c/bad/POWER.md', '---\nname: [unclosed\n---\nbody');
    write('kiro-c/bad/mcp.json', '{ "mcpServers": { "x": { "command": "y" } }');
    const { powers, issues } = importKiroPowers(path.join(scratch.root(), 'kiro-c'));
    assert.deepEqual(powers, []);
    assert.equal(issues.length, 2, JSON.stringify(issues));
    assert.ok(issues[0].file.endsWith('POWER.md') && /YAML/.test(issues[0].message));
    assert.ok(issues[1].file.endsWith('mcp.json'));
    assert.deepEqual(importKiroPowers(path.join(scratch.root(), 'absent')), { powers: [], issues: [] });
  });
});

describe('Cursor mcp.json', () => {
  test("Claude's shape with VS Code's variables; the workspace folder comes from .cursor/", () => {
    const file = write(
      'proj/.cursor/mcp.json',
      JSON.stringify({
        mcpServers: {
          files: {
            command: 'npx',
            args: ['-y', 'server-filesystem', '${workspaceFolder}/docs'],
            env: { KEY: '${env:CURSOR_TEST_KEY}' },
          },
          api: { url: 'https://api.example.com/mcp', headers: { Authorization: 'Bearer ${env:MISSING_TOKEN}' } },
        },
      }),
    );
    const { powers, issues } = importCursorMcp(file, { env: { CURSOR_TEST_KEY: 'k1' } });
    assert.deepEqual(issues, []);
    assert.deepEqual(
      powers.map((p) => [p.name, p.source.kind]),
      [
        ['files', 'cursor-mcp'],
        ['api', 'cursor-mcp'],
      ],
    );
    assert.deepEqual(powers[0].server, {
      transport: 'stdio',
      command: 'npx',
      args: ['-y', 'server-filesystem', `${path.join(scratch.root(), 'proj')}/docs`],
      env: { KEY: 'k1' },
    });
    assert.equal(powers[0].problems.length, 0);
    assert.match(powers[1].problems[0], /MISSING_TOKEN/);
  });
});

describe('the same server in several configs', () => {
  test(
    'same command, args and env: one power, no issue; a different server under the same name (another ' +
      'command, or its own env): an issue',
    () => {
      const server = { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] };
      const vscode = write(
        'dup/Code/User/mcp.json',
        JSON.stringify({ servers: { memory: server, fetch: { command: 'uvx', args: ['mcp-server-fetch'] } } }),
      );
      const claude = write(
        'dup/Claude/claude_desktop_config.json',
        JSON.stringify({ mcpServers: { memory: server, fetch: { command: 'npx', args: ['other-fetch'] } } }),
      );
      const cursor = write(
        'dup/.cursor/mcp.json',
        JSON.stringify({ mcpServers: { memory: { ...server, env: { MEMORY_FILE_PATH: '/elsewhere.jsonl' } } } }),
      );
      write(
        'dup/kiro/memory/POWER.md',
        '---\nname: memory\ndescription: Knowledge graph memory\nkeywords: [memory, graph, entities]\n---\n',
      );
      write('dup/kiro/memory/mcp.json', JSON.stringify({ mcpServers: { memory: server } }));
      const registry = new PowerRegistry({
        spellDirs: [],
        importFiles: [
          { kind: 'vscode-mcp', file: vscode },
          { kind: 'claude-desktop', file: claude },
          { kind: 'cursor-mcp', file: cursor },
          { kind: 'kiro-power', file: path.join(scratch.root(), 'dup', 'kiro') },
        ],
        env: {},
      });
      const snapshot = registry.load();
      assert.deepEqual(
        snapshot.powers.map((p) => [p.name, p.source.kind]),
        [
          ['memory', 'vscode-mcp'],
          ['fetch', 'vscode-mcp'],
        ],
      );
      assert.equal(snapshot.issues.length, 2, JSON.stringify(snapshot.issues));
      assert.match(snapshot.issues[0].message, /"fetch".*is ignored/);
      assert.match(
        snapshot.issues[1].message,
        /"memory" in .*\.cursor\/mcp\.json is ignored/,
        'its own env: another server, not merged',
      );
    },
  );
});

describe('import toggles', () => {
  test('each kind follows its setting', () => {
    const all = defaultImportLocations('/home/u', 'linux', {}, '/ws');
    assert.deepEqual(
      [...new Set(all.map((l) => l.kind))],
      ['vscode-mcp', 'claude-desktop', 'cursor-mcp', 'kiro-power'],
    );
    assert.deepEqual(
      all.filter((l) => l.kind === 'kiro-power').map((l) => l.file),
      ['/ws/.kiro/powers', '/home/u/.kiro/powers'],
    );
    assert.deepEqual(
      all.filter((l) => l.kind === 'cursor-mcp').map((l) => l.file),
      ['/ws/.cursor/mcp.json', '/home/u/.cursor/mcp.json'],
    );
    const some = enabledImportLocations(all, { vscode: false, claudeDesktop: true, cursor: false, kiro: true });
    assert.deepEqual([...new Set(some.map((l) => l.kind))], ['claude-desktop', 'kiro-power']);
  });
});

describe('watching Kiro power folders', () => {
  test('a new power folder and an edit of its POWER.md are picked up', async () => {
    const dir = path.join(scratch.root(), 'kiro-watch');
    fs.mkdirSync(dir, { recursive: true });
    const registry = new PowerRegistry({ spellDirs: [], importFiles: [{ kind: 'kiro-power', file: dir }], env: {} });
    const changed = () =>
      new Promise<string[]>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no change within 5 s')), 5000);
        registry.once('change', (change) => {
          clearTimeout(timer);
          resolve(change.snapshot.powers.map((p) => `${p.name}: ${p.description}`));
        });
      });
    try {
      registry.watch({ debounceMs: 50 });
      assert.deepEqual(registry.snapshot().powers, []);
      let next = changed();
      fs.mkdirSync(path.join(dir, 'notes'));
      fs.writeFileSync(
        path.join(dir, 'notes', 'mcp.json'),
        JSON.stringify({ mcpServers: { notes: { command: 'notes-server' } } }),
      );
      fs.writeFileSync(
        path.join(dir, 'notes', 'POWER.md'),
        '---\nname: notes\ndescription: First words\nkeywords: [a, b, c]\n---\n',
      );
      assert.deepEqual(await next, ['notes: First words']);
      await new Promise((r) => setTimeout(r, 200));
      next = changed();
      fs.writeFileSync(
        path.join(dir, 'notes', 'POWER.md'),
        '---\nname: notes\ndescription: Second words\nkeywords: [a, b, c]\n---\n',
      );
      assert.deepEqual(await next, ['notes: Second words']);
    } finally {
      registry.close();
    }
  });
});
