import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { redact } from '../../server/log.js';
import { expandServer } from '../../server/powers/expand-vars.js';
import { PowerRegistry } from '../../server/powers/registry.js';
import { loadSpellFile, parseSpell } from '../../server/powers/spell-loader.js';
import { spellJsonSchema } from '../../server/powers/spell-schema.js';

const GOOD = `name: github
version: 1.0.0
description: Issues, pull requests and code search on GitHub.
keywords: [github, issues, pull-requests]
steering: |
  Search before you create an issue.
server:
  command: npx
  args: ["-y", "@modelcontextprotocol/server-github"]
  env:
    GITHUB_TOKEN: \${GITHUB_TOKEN}
hints:
  create_issue:
    prerequisites: [search_issues]
    audit: true
annotations:
  delete_branch:
    destructiveHint: true
when:
  workspace_contains: [.git]
`;

function spell(fields: Record<string, string | undefined>): string {
  const base: Record<string, string | undefined> = {
    name: 'github',
    version: '1.0.0',
    description: 'GitHub',
    keywords: '[a, b, c]',
    server: '\n  command: npx',
    ...fields,
  };
  return Object.entries(base)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
}

const FILE = '/spells/github.spell.yaml';
const ctx = { env: {} };

function onlyIssue(text: string, field: string) {
  const result = parseSpell(text, FILE, ctx);
  assert.equal(result.power, undefined, 'an invalid spell gives no power');
  const issue = result.issues.find((i) => i.field === field);
  assert.ok(issue, `expected an issue on ${field}, got ${JSON.stringify(result.issues)}`);
  assert.equal(issue.file, FILE);
  assert.ok(issue.message.length > 0);
  assert.ok(issue.fix.length > 0);
  return issue;
}

describe('spell files', () => {
  test('a good spell loads with every field, its extensions and hashes', () => {
    const { power, extensions, issues } = parseSpell(GOOD, FILE, { env: { GITHUB_TOKEN: 'ghp_secret_value' } });
    assert.deepEqual(issues, []);
    assert.ok(power);
    assert.equal(power.name, 'github');
    assert.deepEqual(power.keywords, ['github', 'issues', 'pull-requests']);
    assert.equal(power.steering, 'Search before you create an issue.\n');
    assert.deepEqual(power.server, {
      transport: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github'],
      env: { GITHUB_TOKEN: 'ghp_secret_value' },
    });
    assert.deepEqual(power.source, { kind: 'spell', file: FILE, readOnly: false });
    assert.equal(power.derivedFromTools, false);
    assert.deepEqual(power.problems, []);
    assert.match(power.serverHash, /^[0-9a-f]{16}$/);
    assert.match(power.definitionHash, /^[0-9a-f]{16}$/);
    assert.deepEqual(extensions?.hints?.create_issue, { prerequisites: ['search_issues'], audit: true });
    assert.equal(extensions?.annotations?.delete_branch?.destructiveHint, true);
    assert.deepEqual(extensions?.when?.workspace_contains, ['.git']);
    assert.equal(redact('token=ghp_secret_value'), 'token=***', 'env values are registered as secrets');
  });

  test('hashes are stable and track what changed', () => {
    const a = parseSpell(GOOD, FILE, ctx).power!;
    const again = parseSpell(GOOD, FILE, ctx).power!;
    const steering = parseSpell(GOOD.replace('Search before', 'Always search before'), FILE, ctx).power!;
    const hints = parseSpell(GOOD.replace('audit: true', 'audit: false'), FILE, ctx).power!;
    const server = parseSpell(GOOD.replace('"-y", ', ''), FILE, ctx).power!;
    assert.equal(again.definitionHash, a.definitionHash);
    assert.equal(steering.serverHash, a.serverHash);
    assert.notEqual(steering.definitionHash, a.definitionHash);
    assert.notEqual(hints.definitionHash, a.definitionHash, 'hint changes count as definition changes');
    assert.notEqual(server.serverHash, a.serverHash);
  });

  test('a bad name names the field and the allowed characters', () => {
    const issue = onlyIssue(spell({ name: 'GitHub_Issues' }), 'name');
    assert.match(issue.message, /GitHub_Issues/);
    assert.match(issue.fix, /lowercase/);
  });

  test('too few and too many keywords', () => {
    assert.match(onlyIssue(spell({ keywords: '[one, two]' }), 'keywords').message, /2 entries; at least 3/);
    const many = `[${Array.from({ length: 21 }, (_, i) => `k${i}`).join(', ')}]`;
    assert.match(onlyIssue(spell({ keywords: many }), 'keywords').message, /21 entries; at most 20/);
    assert.match(onlyIssue(spell({ keywords: 'github' }), 'keywords').message, /must be a list/);
  });

  test('steering over 5000 characters', () => {
    const issue = onlyIssue(spell({ steering: 'x'.repeat(5001) }), 'steering');
    assert.match(issue.message, /5001 characters; the limit is 5000/);
  });

  test('a stdio server without command', () => {
    const issue = onlyIssue(spell({ server: '\n  args: [x]' }), 'server.command');
    assert.match(issue.message, /server\.command is missing/);
    assert.match(issue.fix, /command:/);
  });

  test('an unsupported transport', () => {
    const issue = onlyIssue(spell({ server: '\n  transport: websocket\n  url: ws://x' }), 'server.transport');
    assert.match(issue.message, /"websocket" is not supported/);
    assert.match(issue.fix, /stdio.*http.*sse/);
  });

  test('a remote server without url, a missing server, a numeric version', () => {
    assert.match(onlyIssue(spell({ server: '\n  transport: http' }), 'server.url').message, /server\.url is missing/);
    assert.match(onlyIssue(spell({ server: undefined }), 'server').message, /server is missing/);
    assert.match(onlyIssue(spell({ version: '1.0' }), 'version').fix, /quotes/);
  });

  test('a bad extension is rejected with its path', () => {
    const issue = onlyIssue(
      spell({ annotations: '\n  delete_repo:\n    destructiveHint: "yes"' }),
      'annotations.delete_repo.destructiveHint',
    );
    assert.match(issue.message, /true or false/);
    onlyIssue(spell({ hints: '\n  create_issue:\n    prerequisites: search' }), 'hints.create_issue.prerequisites');
  });

  test('unknown keys and a file name mismatch are warnings: the power still loads', () => {
    const text = spell({ name: 'gh', keyword: 'x', server: '\n  command: npx\n  agrs: [x]' });
    const { power, issues } = parseSpell(text, FILE, ctx);
    assert.ok(power, 'the spell still loads');
    const byField = new Map(issues.map((i) => [i.field, i]));
    assert.match(byField.get('keyword')!.message, /did you mean "keywords"/);
    assert.match(byField.get('server.agrs')!.message, /did you mean "args"/);
    assert.match(byField.get('name')!.message, /github\.spell\.yaml.*"gh"/);
    assert.match(byField.get('name')!.fix, /gh\.spell\.yaml/);
  });

  test('a YAML syntax error names the line and column', () => {
    const result = parseSpell('name: github\nversion: "1.0\nkeywords: [a, b\n', FILE, ctx);
    assert.equal(result.power, undefined);
    assert.ok(result.issues.length >= 1);
    assert.match(result.issues[0].message, /YAML syntax error at line \d+, column \d+/);
    const indent = parseSpell('name: github\n  version: 1\n', FILE, ctx);
    assert.match(indent.issues[0].message, /line 1, column/);
  });

  test('an empty file and a non-mapping file', () => {
    assert.match(parseSpell('', FILE, ctx).issues[0].message, /empty/);
    assert.match(parseSpell('- a\n- b\n', FILE, ctx).issues[0].message, /not a YAML mapping/);
  });

  test('a missing file is an issue, not an exception', () => {
    const result = loadSpellFile('/nonexistent/x.spell.yaml', ctx);
    assert.equal(result.power, undefined);
    assert.match(result.issues[0].message, /cannot read/);
  });
});

describe('variable expansion', () => {
  test('set, unset and defaulted variables over every expandable field', () => {
    const { server, problems } = expandServer(
      {
        transport: 'stdio',
        command: '${NODE}',
        args: ['${MODULES}/server.js', '--mode=${MODE:-fast}', '${EMPTY:-fallback}'],
        env: { GITHUB_TOKEN: '${GITHUB_TOKEN}', HOME_DIR: '${HOME_DIR}' },
        cwd: '${WORK}',
      },
      { NODE: '/usr/bin/node', MODULES: '/m', EMPTY: '', HOME_DIR: '/home/u', WORK: '/w' },
    );
    assert.deepEqual(server, {
      transport: 'stdio',
      command: '/usr/bin/node',
      args: ['/m/server.js', '--mode=fast', 'fallback'],
      env: { GITHUB_TOKEN: '', HOME_DIR: '/home/u' },
      cwd: '/w',
    });
    assert.deepEqual(problems, [
      'environment variable GITHUB_TOKEN is not set (used in server.env.GITHUB_TOKEN): set it in the environment or in the spell',
    ]);
  });

  test('url and header values, secrets registered', () => {
    const { server, problems } = expandServer(
      {
        transport: 'http',
        url: '${BASE:-https://api.example.com}/mcp',
        headers: { Authorization: 'Bearer ${API_TOKEN}' },
      },
      { API_TOKEN: 'tok-12345' },
    );
    assert.deepEqual(server, {
      transport: 'http',
      url: 'https://api.example.com/mcp',
      headers: { Authorization: 'Bearer tok-12345' },
    });
    assert.deepEqual(problems, []);
    assert.equal(redact('sent Bearer tok-12345'), 'sent ***');
  });

  test('a spell with an unset variable loads with a problem; caller vars win over env', () => {
    const text = spell({
      server:
        '\n  command: ${GRIMOIRE_NODE}\n  args: ["${GRIMOIRE_DEMO_MODULES}/x.js"]\n  env:\n    GITHUB_TOKEN: ${GITHUB_TOKEN}',
    });
    const { power } = parseSpell(text, FILE, {
      env: { GRIMOIRE_NODE: 'node', GRIMOIRE_DEMO_MODULES: '/env' },
      vars: { GRIMOIRE_DEMO_MODULES: '/demo' },
      kind: 'demo',
    });
    assert.ok(power);
    assert.equal(power.server.transport === 'stdio' && power.server.args[0], '/demo/x.js');
    assert.deepEqual(power.problems, [
      'environment variable GITHUB_TOKEN is not set (used in server.env.GITHUB_TOKEN): set it in the environment or in the spell',
    ]);
    assert.deepEqual(power.source.kind, 'demo');
    assert.equal(power.source.readOnly, true);
  });
});

describe('a registry of spell folders', () => {
  let root: string;
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'grimoire-spells-'));
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  test('a bad file next to good ones: the good ones load; first folder wins a clash', () => {
    const first = path.join(root, 'first');
    const second = path.join(root, 'second');
    fs.mkdirSync(first);
    fs.mkdirSync(second);
    fs.writeFileSync(path.join(first, 'alpha.spell.yaml'), spell({ name: 'alpha' }));
    fs.writeFileSync(path.join(first, 'broken.spell.yaml'), 'name: broken\nkeywords: [a\n');
    fs.writeFileSync(path.join(first, 'invalid.spell.yaml'), spell({ name: 'invalid', keywords: '[a]' }));
    fs.writeFileSync(path.join(first, 'notes.md'), 'not a spell');
    fs.writeFileSync(path.join(second, 'alpha.spell.yaml'), spell({ name: 'alpha', description: 'second' }));
    fs.writeFileSync(path.join(second, 'beta.spell.yml'), spell({ name: 'beta' }));
    const registry = new PowerRegistry({
      spellDirs: [first, second, path.join(root, 'missing')],
      importFiles: [],
      env: {},
    });
    const snapshot = registry.load();
    assert.deepEqual(
      snapshot.powers.map((p) => p.name),
      ['alpha', 'beta'],
    );
    assert.equal(registry.get('alpha')?.description, 'GitHub');
    assert.equal(registry.get('invalid'), undefined);
    const files = snapshot.issues.map((i) => path.basename(i.file));
    assert.ok(files.includes('broken.spell.yaml'));
    assert.ok(files.includes('invalid.spell.yaml'));
    const clash = snapshot.issues.find((i) => i.message.includes('is ignored') && i.field === 'name');
    assert.ok(clash);
    assert.ok(
      clash.message.includes(path.join(first, 'alpha.spell.yaml')) &&
        clash.message.includes(path.join(second, 'alpha.spell.yaml')),
    );
    assert.equal(snapshot.issues.length, 3);
  });
});

describe('JSON schema', () => {
  test('is an object schema with the spell properties', () => {
    const schema = spellJsonSchema() as {
      type: string;
      properties: Record<string, { pattern?: string }>;
      required: string[];
    };
    assert.equal(schema.type, 'object');
    assert.equal(schema.properties.name.pattern, '^[a-z0-9-]+$');
    for (const key of ['version', 'description', 'keywords', 'steering', 'server', 'hints', 'annotations', 'when'])
      assert.ok(key in schema.properties, key);
    assert.deepEqual([...schema.required].sort(), ['description', 'keywords', 'name', 'server', 'version']);
  });
});
