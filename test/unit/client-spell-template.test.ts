import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { keywordsFor, mcpEntries, spellFromMcpEntry, spellName, templateSpell } from '../../client/spell-template.js';
import { spellSchema } from '../../server/powers/spell-schema.js';

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
  assert.deepEqual(mcpEntries('/w/.vscode/mcp.json', vscodeJson).map((entry) => entry.key), ['github']);
  assert.deepEqual(mcpEntries('/c/claude.json', '{"mcpServers":{"fs":{"command":"npx"}}}').map((entry) => entry.key), ['fs']);
  assert.deepEqual(mcpEntries('/x.json', 'not json'), []);
});

test('a stdio entry becomes a valid spell; VS Code variables become spell variables', () => {
  const text = spellFromMcpEntry(
    {
      file: '/w/.vscode/mcp.json',
      key: 'My GitHub',
      config: { command: 'npx', args: ['-y', 'server-github', '${workspaceFolder}/src'], env: { TOKEN: '${input:gh-token}', HOME_DIR: '${userHome}', KEY: '${env:API_KEY}' } },
    },
    { workspaceFolder: '/w', toolNames: ['create_issue', 'list_pull_requests'] },
  );
  const spell = valid(text);
  assert.equal(spell.name, 'my-github');
  assert.deepEqual(spell.server, { transport: 'stdio', command: 'npx', args: ['-y', 'server-github', '/w/src'], env: { TOKEN: '${GH_TOKEN}', HOME_DIR: '${HOME}', KEY: '${API_KEY}' } });
  assert.match(text, /^# Made from "My GitHub" in \/w\/\.vscode\/mcp\.json\./);
  assert.match(text, /# \$\{GH_TOKEN\} was an mcp\.json input/);
  assert.ok((spell.keywords as string[]).includes('issue'));
});

test('an http entry keeps its URL and headers', () => {
  const spell = valid(spellFromMcpEntry({ file: '/m.json', key: 'remote', config: { type: 'http', url: 'https://x.example/mcp', headers: { Authorization: 'Bearer ${input:token}' } } }));
  assert.deepEqual(spell.server, { transport: 'http', url: 'https://x.example/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } });
});

test('names and keywords always satisfy the spell schema', () => {
  assert.equal(spellName('  GitHub Enterprise!! '), 'github-enterprise');
  assert.equal(spellName('***'), 'my-power');
  const few = keywordsFor('db', []);
  assert.ok(few.length >= 3);
  assert.ok(keywordsFor('x', Array.from({ length: 40 }, (_, i) => `tool_number${i}`)).length <= 20);
});
