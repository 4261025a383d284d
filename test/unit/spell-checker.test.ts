/**
 * The spell checker (server/spells/check-spell.ts): every problem at its line and column, with a fix and,
 * where mechanical, a quick fix.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  checkSpell,
  formatProblem,
  type SpellCheckContext,
  type SpellProblem,
} from '../../server/spells/check-spell.js';
import { parseSpell } from '../../server/powers/spell-loader.js';

const ctx = (extra: Partial<SpellCheckContext> = {}): SpellCheckContext => ({
  env: { PATH: process.env.PATH },
  pathEnv: process.env.PATH,
  ...extra,
});
const at = (problem: SpellProblem) => `${problem.range.start.line + 1}:${problem.range.start.character + 1}`;

/** Applies a quick fix's edit to the text. */
function apply(text: string, problem: SpellProblem): string {
  const fix = problem.quickFix!;
  const lines = text.split('\n');
  const offset = (p: { line: number; character: number }) =>
    lines.slice(0, p.line).reduce((sum, line) => sum + line.length + 1, 0) + p.character;
  return text.slice(0, offset(fix.range.start)) + fix.newText + text.slice(offset(fix.range.end));
}

const MALFORMED = `name: My Power!
description: Does things.
keywords: [one]
colour: blue
server:
  command: node
  argz: []
hints:
  some_tool:
    prerequisite: [x]
`;

test('a malformed spell: each problem at its line and column, errors and warnings told apart', () => {
  const { problems, power } = checkSpell(MALFORMED, '/w/my-power.spell.yaml', ctx());
  assert.equal(power, undefined, 'the spell does not load');
  const rows = problems.map((p) => [at(p), p.severity, p.code, p.field]);
  assert.deepEqual(rows, [
    ['1:1', 'error', 'schema', 'version'],
    ['1:7', 'error', 'schema', 'name'],
    ['3:11', 'error', 'schema', 'keywords'],
    ['4:1', 'warning', 'unknown-key', 'colour'],
    ['7:3', 'warning', 'unknown-key', 'server.argz'],
    ['10:5', 'warning', 'unknown-key', 'hints.some_tool.prerequisite'],
  ]);
  const keywords = problems.find((p) => p.field === 'keywords')!;
  assert.match(keywords.message, /keywords has 1 entry; at least 3 are needed/);
  assert.match(keywords.fix, /3 to 20 words/);
  assert.deepEqual(keywords.range.end, { line: 2, character: 15 }, 'the whole [one] list');
  assert.equal(
    formatProblem('/w/my-power.spell.yaml', keywords),
    '/w/my-power.spell.yaml:3:11: error: keywords has 1 entry; at least 3 are needed (fix: ' +
      'list 3 to 20 words a user might say when they need this power)',
  );
});

test('quick fixes: lower-case the name, add version, rename a near-miss key; each edit leaves a spell that checks cleaner', () => {
  const { problems } = checkSpell(MALFORMED, '/w/my-power.spell.yaml', ctx());
  const name = problems.find((p) => p.field === 'name')!;
  assert.equal(name.quickFix?.title, 'Change the name to "my-power"');
  assert.match(apply(MALFORMED, name), /^name: my-power\n/);
  const version = problems.find((p) => p.field === 'version')!;
  assert.equal(apply(MALFORMED, version).split('\n')[1], 'version: 1.0.0');
  const argz = problems.find((p) => p.field === 'server.argz')!;
  assert.match(apply(MALFORMED, argz), /\n {2}args: \[\]\n/);
  const colour = problems.find((p) => p.field === 'colour')!;
  assert.equal(
    colour.quickFix?.title,
    'Remove "colour"',
    'no near key: the message says remove it, and the quick fix does',
  );
  assert.equal(apply(MALFORMED, colour).split('\n')[3], 'server:', 'the whole line goes');

  let text = MALFORMED;
  for (const field of ['hints.some_tool.prerequisite', 'server.argz', 'colour', 'keywords', 'name', 'version']) {
    const problem = checkSpell(text, '/w/my-power.spell.yaml', ctx()).problems.find((p) => p.field === field);
    if (problem?.quickFix) text = apply(text, problem);
  }
  const after = checkSpell(text.replace('[one]', '[one, two, three]'), '/w/my-power.spell.yaml', ctx());
  assert.ok(after.power, after.problems.map((p) => p.message).join('; '));
  assert.deepEqual(
    after.problems.map((p) => p.field),
    [],
  );
});

test('every check at once: the PATH check is reported while other fields are wrong, the same by the loader (the Powers tree)', () => {
  const text =
    'name: late\nversion: 1.0.0\ndescription: Notes kept late at night.\nkeywords: [notes]\nserver:\n  command: no-such-program-i36b\n';
  const { problems, power } = checkSpell(text, '/w/late.spell.yaml', ctx());
  assert.equal(power, undefined);
  assert.deepEqual(
    problems.map((p) => [at(p), p.severity, p.code]),
    [
      ['4:11', 'error', 'schema'],
      ['6:12', 'warning', 'command-not-found'],
    ],
  );
  const loaded = parseSpell(text, '/w/late.spell.yaml', { env: { PATH: process.env.PATH } });
  const command = loaded.issues.find((issue) => issue.field === 'server.command')!;
  assert.equal(command.severity, 'warning');
  assert.equal(command.message, problems[1].message, 'the same words in the tree as in the editor');
});

test('quick fixes where the message names the fix: too few keywords filled from the name and description, too many cut to 20', () => {
  const few =
    'name: weather-alerts\nversion: 1.0.0\ndescription: Severe weather warnings and forecasts for a ' +
    'city.\nkeywords: [storm]\nserver:\n  command: node\n';
  const problem = checkSpell(few, '/w/weather-alerts.spell.yaml', ctx()).problems.find((p) => p.field === 'keywords')!;
  assert.equal(problem.quickFix?.title, 'Set keywords to ["storm", "weather", "alerts"]');
  assert.ok(checkSpell(apply(few, problem), '/w/weather-alerts.spell.yaml', ctx()).power, 'the fixed spell loads');
  const many = few.replace('[storm]', `[${Array.from({ length: 22 }, (_, i) => `k${i}x`).join(', ')}]`);
  const tooMany = checkSpell(many, '/w/weather-alerts.spell.yaml', ctx()).problems.find((p) => p.field === 'keywords')!;
  assert.equal(tooMany.quickFix?.title, 'Keep the first 20 keywords');
  assert.ok(checkSpell(apply(many, tooMany), '/w/weather-alerts.spell.yaml', ctx()).power);
});

test("an unchanged placeholder is flagged: the template description and keywords, the importer's TODO", () => {
  const template =
    'name: my-power\nversion: 1.0.0\ndescription: "TODO: say in one sentence what this power ' +
    'does."\nkeywords: [first-keyword, second-keyword, third-keyword]\nserver:\n  command: node\n';
  const problems = checkSpell(template, '/w/my-power.spell.yaml', ctx()).problems.filter(
    (p) => p.code === 'placeholder',
  );
  assert.deepEqual(
    problems.map((p) => [at(p), p.field]),
    [
      ['3:14', 'description'],
      ['4:12', 'keywords.0'],
      ['4:27', 'keywords.1'],
      ['4:43', 'keywords.2'],
    ],
  );
  assert.equal(problems[0].severity, 'warning');
  const written = template
    .replace(/description: .*/, 'description: Tracks my reading list.')
    .replace(/\[first.*\]/, '[books, reading, library]');
  assert.deepEqual(checkSpell(written, '/w/my-power.spell.yaml', ctx()).problems, []);
});

test('an unclosed [ is reported where it was opened, not where the parser gave up', () => {
  const text = 'name: broken\nversion: 1.0.0\nkeywords: [a, b\ndescription: x\n';
  const { problems } = checkSpell(text, '/w/broken.spell.yaml', ctx());
  assert.equal(problems.length, 1);
  assert.equal(at(problems[0]), '3:11');
  assert.equal(problems[0].code, 'yaml');
  assert.match(problems[0].message, /"\[" is never closed/);
});

test('other YAML errors keep the parser position', () => {
  const { problems } = checkSpell('name: x\n  version: 1\nkeywords: [a]\n', '/w/x.spell.yaml', ctx());
  assert.ok(problems.length >= 1);
  assert.ok(problems.every((p) => p.severity === 'error' && p.code === 'yaml'));
  assert.deepEqual(problems[0].range.start, { line: 0, character: 6 }, 'where the parser saw the nested mapping start');
  assert.match(problems[0].fix, /line 1, column 7/, 'the fix names the same place, 1-based');
});

const GOOD = `name: notes
version: 1.0.0
description: Notes in a knowledge graph.
keywords: [notes, memory, graph]
server:
  command: node
  args: [server.js]
hints:
  write_note:
    prerequisites: [read_notes, search]
annotations:
  read_notez:
    readOnlyHint: true
`;

test('a duplicate name across files, tools the power does not have, each with its place and fix', () => {
  const { problems, power } = checkSpell(
    GOOD,
    '/w/notes.spell.yaml',
    ctx({
      otherPowers: [
        { name: 'notes', file: '/home/u/.grimoire/notes.spell.yaml' },
        { name: 'notes', file: '/w/notes.spell.yaml' },
      ],
      toolsOf: (name) => (name === 'notes' ? ['write_note', 'read_notes', 'read_note'] : undefined),
    }),
  );
  assert.ok(power);
  const rows = problems.map((p) => [at(p), p.severity, p.code, p.field]);
  assert.deepEqual(rows, [
    ['1:7', 'error', 'duplicate-name', 'name'],
    ['10:33', 'warning', 'unknown-tool', 'hints.write_note.prerequisites.1'],
    ['12:3', 'warning', 'unknown-tool', 'annotations.read_notez'],
  ]);
  assert.match(problems[0].message, /another power is named "notes" \(in \/home\/u\/\.grimoire\/notes\.spell\.yaml\)/);
  const near = problems[2];
  assert.match(near.message, /did you mean "read_notes"/);
  assert.equal(near.quickFix?.newText, 'read_notes');
  assert.match(problems[1].fix, /use one of its tools: write_note, read_notes, read_note/);
});

test('tools are not checked before the power has been listed once', () => {
  const { problems } = checkSpell(GOOD, '/w/notes.spell.yaml', ctx({ toolsOf: () => [] }));
  assert.deepEqual(problems, []);
});

test('a command that is not on PATH is a warning on its value; an unset variable is placed where it is used', () => {
  const text = GOOD.replace('command: node', 'command: my-mcp-server').replace(
    '[server.js]',
    '["${NOTES_DIR}/server.js"]',
  );
  const missing = checkSpell(text.replace('"${NOTES_DIR}/server.js"', 'server.js'), '/w/notes.spell.yaml', ctx());
  assert.deepEqual(
    missing.problems.map((p) => [at(p), p.severity, p.code]),
    [['6:12', 'warning', 'command-not-found']],
  );
  assert.match(missing.problems[0].message, /command "my-mcp-server" was not found on PATH/);
  const unset = checkSpell(text, '/w/notes.spell.yaml', ctx());
  assert.deepEqual(
    unset.problems.map((p) => [at(p), p.code, p.field]),
    [['7:10', 'unset-variable', 'server.args.0']],
  );
  assert.match(unset.problems[0].message, /NOTES_DIR is not set/);
});

test('a name that differs from the file name: a warning with the file name as the fix', () => {
  const { problems, power } = checkSpell(GOOD, '/w/my-notes.spell.yaml', ctx());
  assert.ok(power);
  assert.deepEqual(
    problems.map((p) => [at(p), p.severity, p.code]),
    [['1:7', 'warning', 'file-name']],
  );
  assert.equal(problems[0].quickFix?.newText, 'my-notes');
});
