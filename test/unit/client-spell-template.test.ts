import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import {
  keywordQuery,
  mcpEntries,
  spellFromMcpEntry,
  spellName,
  templateSpell,
  type McpEntry,
  type McpSpellOptions,
} from '../../client/spell-template.js';
import { keywordsFor } from '../../server/spells/spell-keywords.js';
import { spellSchema } from '../../server/powers/spell-schema.js';
import { checkSpell } from '../../server/spells/check-spell.js';
import { parseSpell } from '../../server/powers/spell-loader.js';
import { MEMORY_TOOL_NAMES } from '../helpers/memory-spell.js';

/** The spell the extension writes, its keywords as the gateway answers protocol.spellKeywords. */
function spellFrom(entry: McpEntry, options: Omit<McpSpellOptions, 'keywords'> = {}): string {
  return spellFromMcpEntry(entry, { ...options, keywords: keywordsFor(keywordQuery(entry, options.known)) });
}

function valid(text: string): Record<string, unknown> {
  const parsed = spellSchema.safeParse(parse(text));
  assert.ok(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues));
  return parsed.data as Record<string, unknown>;
}

test('the template is a valid spell with the given name', () => {
  const spell = valid(templateSpell('team-notes'));
  assert.equal(spell.name, 'team-notes');
  assert.match(String(spell.steering), /which tool to call first/);
});

test('servers are read from mcp.json (servers) and Claude Desktop (mcpServers), comments and trailing commas allowed', () => {
  const vscodeJson = `{
    // the team's servers
    "servers": { "github": { "type": "http", "url": "https://api.example.com/mcp", }, "broken": 3 },
    "inputs": [],
  }`;
  assert.deepEqual(
    mcpEntries('/w/.vscode/mcp.json', vscodeJson).map((entry) => entry.key),
    ['github'],
  );
  assert.deepEqual(
    mcpEntries('/c/claude.json', '{"mcpServers":{"fs":{"command":"npx"}}}').map((entry) => entry.key),
    ['fs'],
  );
  assert.deepEqual(mcpEntries('/x.json', 'not json'), []);
});

test('a stdio entry becomes a valid spell; VS Code variables become spell variables', () => {
  const text = spellFrom(
    {
      file: '/w/.vscode/mcp.json',
      key: 'My GitHub',
      config: {
        command: 'npx',
        args: ['-y', 'server-github', '${workspaceFolder}/src'],
        env: { TOKEN: '${input:gh-token}', HOME_DIR: '${userHome}', KEY: '${env:API_KEY}' },
      },
    },
    {
      workspaceFolder: '/w',
      known: {
        description: 'Issues and pull requests of GitHub repositories.',
        toolNames: ['create_issue', 'list_pull_requests'],
      },
    },
  );
  const spell = valid(text);
  assert.equal(spell.name, 'my-github');
  assert.deepEqual(spell.server, {
    transport: 'stdio',
    command: 'npx',
    args: ['-y', 'server-github', '/w/src'],
    env: { TOKEN: '${GH_TOKEN}', HOME_DIR: '${HOME}', KEY: '${API_KEY}' },
  });
  assert.match(text, /^# Made from "My GitHub" in \.vscode\/mcp\.json\./);
  assert.match(text, /# \$\{GH_TOKEN\} was an mcp\.json input/);
  assert.ok((spell.keywords as string[]).includes('issue'));
  assert.equal(
    spell.description,
    'Issues and pull requests of GitHub repositories.',
    'what the gateway knows of the server',
  );
});

test(
  'New Spell File from mcp.json: a real description and telling keywords when the tools are known, ' +
    'a marked placeholder when not',
  () => {
    const entry = {
      file: '/w/.vscode/mcp.json',
      key: 'notes',
      config: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] },
    };
    const tools = [...MEMORY_TOOL_NAMES];
    const known = valid(
      spellFrom(entry, {
        known: {
          description: 'A knowledge graph of entities, relations and observations kept across sessions.',
          toolNames: tools,
        },
      }),
    );
    assert.equal(known.description, 'A knowledge graph of entities, relations and observations kept across sessions.');
    const keywords = known.keywords as string[];
    assert.deepEqual(keywords.slice(0, 2), ['notes', 'memory'], 'the key, then the package the entry runs');
    for (const word of ['entities', 'relations', 'observations', 'graph'])
      assert.ok(keywords.includes(word), `${word} in ${keywords.join(', ')}`);
    for (const filler of ['mcp', 'server', 'tools', 'add', 'delete', 'read'])
      assert.ok(!keywords.includes(filler), `no filler "${filler}" in ${keywords.join(', ')}`);
    const checked = checkSpell(
      spellFrom(entry, { known: { description: String(known.description), toolNames: tools } }),
      '/w/.grimoire/notes.spell.yaml',
      { env: { PATH: process.env.PATH }, pathEnv: process.env.PATH },
    );
    assert.deepEqual(
      checked.problems.filter((p) => p.code === 'placeholder'),
      [],
    );

    const unknown = spellFrom({ ...entry, config: { command: 'node', args: ['serve.js'] } });
    const spell = valid(unknown);
    assert.match(String(spell.description), /^TODO: say in one sentence what the "notes" server does/);
    assert.match(unknown, /# Its tools were not listed yet: the description is a placeholder/);
    const flagged = checkSpell(unknown, '/w/.grimoire/notes.spell.yaml', {
      env: { PATH: process.env.PATH },
      pathEnv: process.env.PATH,
    }).problems.filter((p) => p.code === 'placeholder');
    assert.deepEqual(
      flagged.map((p) => p.field).sort(),
      ['description', 'keywords.1', 'keywords.2'],
      'the placeholder description and the filled-up keywords are flagged',
    );
  },
);

test('the template is flagged until its placeholders are written over', () => {
  const problems = checkSpell(templateSpell('my-power'), '/w/my-power.spell.yaml', {
    env: { PATH: process.env.PATH },
    pathEnv: process.env.PATH,
  }).problems;
  assert.deepEqual(
    problems.filter((p) => p.code === 'placeholder').map((p) => p.field),
    ['description', 'keywords.0', 'keywords.1', 'keywords.2', 'steering'],
  );
});

test('an http entry keeps its URL and headers', () => {
  const spell = valid(
    spellFrom({
      file: '/m.json',
      key: 'remote',
      config: { type: 'http', url: 'https://x.example/mcp', headers: { Authorization: 'Bearer ${input:token}' } },
    }),
  );
  assert.deepEqual(spell.server, {
    transport: 'http',
    url: 'https://x.example/mcp',
    headers: { Authorization: 'Bearer ${TOKEN}' },
  });
});

test('names and keywords always satisfy the spell schema', () => {
  assert.equal(spellName('  GitHub Enterprise!! '), 'github-enterprise');
  assert.equal(spellName('***'), 'my-power');
  const few = keywordsFor({ key: 'db', toolNames: [] });
  assert.ok(few.length >= 3);
  assert.ok(keywordsFor({ key: 'x', toolNames: Array.from({ length: 40 }, (_, i) => `tool_number${i}`) }).length <= 20);
});

test('a spell made in the workspace keeps ${workspaceFolder} as a variable, which the loader sets for a workspace spell', () => {
  const text = spellFrom({
    file: '/w/.vscode/mcp.json',
    key: 'files',
    config: {
      command: 'npx',
      args: [
        '-y',
        '@modelcontextprotocol/server-filesystem',
        '${workspaceFolder}',
        '--name=${workspaceFolderBasename}',
      ],
    },
  });
  assert.match(text, /"\$\{workspaceFolder\}"/);
  const loaded = parseSpell(text, '/elsewhere/project/.grimoire/files.spell.yaml', { env: {} });
  assert.deepEqual(loaded.power?.problems, []);
  assert.deepEqual(loaded.power?.server.transport === 'stdio' && loaded.power.server.args, [
    '-y',
    '@modelcontextprotocol/server-filesystem',
    '/elsewhere/project',
    '--name=project',
  ]);
  const outside = parseSpell(text, '/home/u/.grimoire/files.spell.yaml', { env: { HOME: '/home/u' } });
  assert.match(
    outside.power!.problems.join('\n'),
    /workspaceFolder is not set/,
    'outside a workspace the variable has no value, and says so',
  );
});

test('a generated spell has no steering and no filler keywords; placeholder steering left in a spell is flagged and never loaded', () => {
  const entry = {
    file: '/w/.vscode/mcp.json',
    key: 'memory',
    config: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] },
  };
  const tools = [...MEMORY_TOOL_NAMES];
  const text = spellFrom(entry, {
    known: {
      description: 'Create multiple new entities between existing nodes in the entire active voice graph.',
      toolNames: tools,
    },
  });
  assert.doesNotMatch(text, /steering|Guidance/);
  const keywords = valid(text).keywords as string[];
  for (const filler of ['active', 'voice', 'between', 'existing', 'entire', 'multiple'])
    assert.ok(!keywords.includes(filler), `no filler "${filler}" in ${keywords.join(', ')}`);
  const left = templateSpell('my-power');
  assert.equal(
    parseSpell(left, '/w/.grimoire/my-power.spell.yaml', { env: {} }).power?.steering,
    '',
    'the placeholder is never sent to the agent',
  );
  const older =
    `${text}steering: |\n` +
    '  Guidance the agent reads with every tool of memory: which tool to call first, and what to check before a change.\n';
  assert.equal(parseSpell(older, '/w/.grimoire/memory.spell.yaml', { env: {} }).power?.steering, '');
  assert.deepEqual(
    checkSpell(older, '/w/.grimoire/memory.spell.yaml', { env: { PATH: process.env.PATH }, pathEnv: process.env.PATH })
      .problems.filter((p) => p.code === 'placeholder')
      .map((p) => p.field),
    ['steering'],
  );
  const own = parseSpell(`${text}steering: Call read_graph first.\n`, '/w/.grimoire/memory.spell.yaml', { env: {} });
  assert.equal(own.power?.steering, 'Call read_graph first.');
});
