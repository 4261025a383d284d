/** `grimoire spells check`: the editor's checker as a command, run as a user would run it. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { cliPath, tempDir, writeSpell } from '../helpers/temp.js';

function check(args: string[], home: string) {
  const result = spawnSync(process.execPath, [cliPath, 'spells', 'check', ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: home, GRIMOIRE_HOME: path.join(home, 'grimoire') },
    cwd: home,
    timeout: 30_000,
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

const VALID = (name: string) =>
  `name: ${name}\nversion: 1.0.0\ndescription: A test power.\nkeywords: ` +
  `[one, two, three]\nserver:\n  command: ${JSON.stringify(process.execPath)}\n`;

test('malformed files: file:line:col: severity: message lines, a summary, exit 1', () => {
  const home = tempDir();
  try {
    const dir = path.join(home.dir, 'spells');
    const bad = writeSpell(
      dir,
      'bad',
      'name: Bad Name\nversion: 1.0.0\ndescription: x\nkeywords: [one]\nserver:\n  command: no-such-program-i36b\n',
    );
    const broken = writeSpell(dir, 'broken', 'name: broken\nkeywords: [a, b\n');
    writeSpell(dir, 'good', VALID('good'));
    const { code, out } = check([dir], home.dir);
    assert.equal(code, 1, out);
    const lines = out.trim().split('\n');
    assert.deepEqual(lines.slice(0, -1), [
      `${bad}:1:7: error: name "Bad Name" has characters other than a-z, 0-9 and "-" (fix: ` +
        `use lowercase letters, digits and "-" only, e.g. name: github-issues)`,
      `${bad}:4:11: error: keywords has 1 entry; at least 3 are needed (fix: ` +
        `list 3 to 20 words a user might say when they need this power)`,
      `${bad}:6:12: warning: command "no-such-program-i36b" was not found on PATH: ` +
        `the power cannot start (fix: install the program, or give its full path)`,
      `${broken}:2:11: error: YAML syntax error: this "[" is never closed (fix: close it with "]")`,
    ]);
    assert.equal(
      lines.at(-1),
      '3 spell file(s) checked: 3 error(s), 1 warning(s)',
      'the PATH check with the other errors, not after them',
    );
  } finally {
    home.cleanup();
  }
});

test('--json, warnings only (exit 0), a duplicate name across the files given, a missing path', () => {
  const home = tempDir();
  try {
    const one = writeSpell(path.join(home.dir, 'a'), 'same', VALID('same'));
    const two = writeSpell(
      path.join(home.dir, 'b'),
      'same',
      VALID('same').replace(JSON.stringify(process.execPath), 'no-such-program-here'),
    );
    const json = check([one, '--json'], home.dir);
    assert.equal(json.code, 0, json.out);
    assert.deepEqual(JSON.parse(json.out), {
      files: [{ file: one, power: 'same', problems: [] }],
      errors: 0,
      warnings: 0,
    });
    const both = check([one, two, '--json'], home.dir);
    assert.equal(both.code, 1);
    const report = JSON.parse(both.out) as {
      files: Array<{ file: string; problems: Array<{ code: string; line: number; column: number; severity: string }> }>;
    };
    assert.deepEqual(
      report.files.map((f) => f.problems.map((p) => [p.code, p.line, p.column, p.severity])),
      [
        [['duplicate-name', 1, 7, 'error']],
        [
          ['duplicate-name', 1, 7, 'error'],
          ['command-not-found', 6, 12, 'warning'],
        ],
      ],
    );
    const missing = check([path.join(home.dir, 'nope.spell.yaml')], home.dir);
    assert.equal(missing.code, 1);
    assert.match(missing.out, /nope\.spell\.yaml:1:1: error: no such file or folder/);
  } finally {
    home.cleanup();
  }
});

test('no arguments: $GRIMOIRE_HOME and ./.grimoire are checked', () => {
  const home = tempDir();
  try {
    writeSpell(path.join(home.dir, 'grimoire'), 'home-spell', VALID('home-spell'));
    writeSpell(
      path.join(home.dir, '.grimoire'),
      'workspace-spell',
      VALID('workspace-spell').replace('version: 1.0.0\n', ''),
    );
    const { code, out } = check([], home.dir);
    assert.equal(code, 1);
    assert.match(out, /workspace-spell\.spell\.yaml:1:1: error: version is missing/);
    assert.match(out, /^2 spell file\(s\) checked: 1 error\(s\), 0 warning\(s\)$/m);
  } finally {
    home.cleanup();
  }
});
