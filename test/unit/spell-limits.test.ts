import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { formatIssue } from '../../server/powers/issue-text.js';
import { PowerRegistry } from '../../server/powers/registry.js';
import { loadSpellFile, parseSpell } from '../../server/powers/spell-loader.js';
import { MAX_ALIAS_COUNT, MAX_DEPTH } from '../../server/powers/yaml-limits.js';
import { tempDir } from '../helpers/temp.js';

const FILE = '/spells/limits.spell.yaml';
const ctx = { env: {} };

function spell(extra = '', description = 'A power for testing limits.'): string {
  return `name: limits
version: 1.0.0
description: ${JSON.stringify(description)}
keywords: [limit, test, size]
server:
  command: node
${extra}`;
}

function issuesOf(text: string) {
  const result = parseSpell(text, FILE, ctx);
  assert.equal(result.power, undefined, 'no power from a file over a limit');
  return result.issues;
}

test("more aliases than the limit is this file's problem, with the line of the first alias", () => {
  const aliases = Array.from({ length: MAX_ALIAS_COUNT + 20 }, () => '      - *w').join('\n');
  const text = spell(`  args: &w hello\nhints:\n  t:\n    prerequisites:\n${aliases}\n`);
  const [issue] = issuesOf(text);
  assert.match(
    issue.message,
    new RegExp(`YAML aliases expand to more than ${MAX_ALIAS_COUNT} values \\(the first alias, \\*w, is at line 11\\)`),
  );
  assert.equal(issue.line, 11);
  assert.equal(issue.file, FILE);
  assert.match(issue.fix, /write the repeated values out/);
});

test('a few aliases are fine', () => {
  const result = parseSpell(spell('  args: &a [x]\nhints:\n  t:\n    prerequisites: *a\n'), FILE, ctx);
  assert.deepEqual(result.power?.server.transport, 'stdio');
});

test('nesting deeper than the limit is refused, even deep enough to overflow the parser', () => {
  const nested = (n: number) => spell(`when: ${'['.repeat(n)}${']'.repeat(n)}\n`);
  for (const n of [MAX_DEPTH + 5, 100_000]) {
    const [issue] = issuesOf(nested(n));
    assert.match(issue.message, new RegExp(`nests more than ${MAX_DEPTH} levels deep`), `depth ${n}`);
    assert.equal(issue.line, 7);
  }
});

test('a description over 2,000 characters is refused with its length, at its line', () => {
  const [issue] = issuesOf(spell('', 'd'.repeat(10_000)));
  assert.equal(issue.field, 'description');
  assert.equal(issue.line, 3);
  assert.match(issue.message, /description has 10,000 characters; the limit is 2000/);
  assert.ok(issue.message.length < 200, 'the description is not echoed');
});

test('keywords and names have length limits too', () => {
  const keyword = issuesOf(spell().replace('[limit, test, size]', `[limit, test, ${'k'.repeat(500)}]`));
  assert.equal(keyword[0].field, 'keywords.2');
  assert.equal(keyword[0].line, 4);
  assert.match(keyword[0].message, /a keyword has 500 characters; the limit is 64/);
  const name = issuesOf(spell().replace('name: limits', `name: ${'n'.repeat(100_000)}`));
  assert.match(name[0].message, /name has 100000 characters; the limit is 64/);
  const odd = issuesOf(spell().replace('name: limits', `name: ${'N'.repeat(50)}`));
  assert.ok(odd[0].message.length < 200, odd[0].message);
});

test('formatIssue names the file, line and column', () => {
  const [issue] = issuesOf(spell('', 'd'.repeat(3000)));
  assert.match(
    formatIssue(issue),
    /^\/spells\/limits\.spell\.yaml:3:14 \(description\): description has 3,000 characters; the limit is 2000\. Fix: /,
  );
});

const { dir, cleanup } = tempDir('grimoire-spell-limits-');
after(cleanup);

test('a file over limits.fileBytes is refused before it is parsed', () => {
  const file = path.join(dir, 'limits.spell.yaml');
  fs.writeFileSync(file, spell(`steering: |\n  ${'s'.repeat(4000)}\n`));
  const result = loadSpellFile(file, { env: {}, limits: { fileBytes: 2048, fileReadTimeoutMs: 1000 } });
  assert.equal(result.power, undefined);
  assert.match(result.issues[0].message, /the file is 5 KB; the limit is 2 KB/);
});

test('a spell broken while watched is reported (issues event, log) and the others stay', async () => {
  const spells = path.join(dir, 'watched');
  fs.mkdirSync(spells);
  fs.writeFileSync(path.join(spells, 'limits.spell.yaml'), spell());
  fs.writeFileSync(path.join(spells, 'other.spell.yaml'), spell().replace('name: limits', 'name: other'));
  const registry = new PowerRegistry({ spellDirs: [spells], importFiles: [], env: {} });
  try {
    registry.watch({ debounceMs: 20 });
    assert.deepEqual(
      registry
        .snapshot()
        .powers.map((p) => p.name)
        .sort(),
      ['limits', 'other'],
    );
    let timer: NodeJS.Timeout | undefined;
    // The watcher does not keep the process alive; this timer does, and bounds the wait.
    const issues = new Promise<string[]>((resolve, reject) => {
      timer = setTimeout(() => reject(new Error('no issues event within 10 s')), 10_000);
      registry.once('issues', (snapshot) => resolve(snapshot.issues.map(formatIssue)));
    }).finally(() => clearTimeout(timer));
    fs.writeFileSync(path.join(spells, 'limits.spell.yaml'), spell('', 'x'.repeat(5000)));
    const reported = await issues;
    assert.equal(reported.length, 1);
    assert.match(reported[0], /limits\.spell\.yaml:3:14 \(description\): description has 5,000 characters/);
    assert.deepEqual(
      registry.snapshot().powers.map((p) => p.name),
      ['other'],
    );
  } finally {
    registry.close();
  }
});
