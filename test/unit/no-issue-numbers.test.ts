/**
 * Code and docs say what is, not which issue brought it: no "issue 38", "(issue 12)" or bare "(#5)"
 * in the sources, the docs, the scripts or package.json. Another project's issue is named with its
 * repository (`modelcontextprotocol/typescript-sdk#2782`), and a GitHub issue in an example request
 * is written as GitHub writes it ("open issue #12").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../helpers/temp.js';

const SKIPPED_FOLDERS = new Set(['node_modules', 'out', 'dist', '.git', '.vscode-test', '.grimoire-test', 'fixtures']);
const CHECKED = /\.(ts|mts|mjs|cjs|js|md|css|html|json|ya?ml)$|^run$/;

function walk(dir: string): string[] {
  return fs.readdirSync(path.join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED_FOLDERS.has(entry.name)) return [];
    const relative = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return walk(relative);
    return CHECKED.test(entry.name) && entry.name !== 'package-lock.json' ? [relative] : [];
  });
}

/** Our tracker's numbers: "issue 38", "issues 3 and 5", "(#12)" with no repository before it. */
export function issueNumbers(text: string): string[] {
  return [...text.matchAll(/\bissues? \d+\b|(?<![\w/.-])\(#\d+\)/gi)].map((m) => m[0]);
}

test('an issue number is found as the tracker writes it, and not where another repository or an example names one', () => {
  assert.deepEqual(issueNumbers('Known knots (issue 12); since Issue 38; issues 3 and 5; see (#7).'), [
    'issue 12',
    'Issue 38',
    'issues 3',
    '(#7)',
  ]);
  assert.deepEqual(issueNumbers('modelcontextprotocol/typescript-sdk#2782, microsoft/vscode-vsce#790'), []);
  assert.deepEqual(issueNumbers('"open issue #12" reads it; "open an issue" creates one; 12 issues'), []);
});

test('no issue numbers in the code, the docs or the scripts', () => {
  // This file names the patterns it looks for.
  const files = walk('').filter((file) => file !== 'test/unit/no-issue-numbers.test.ts');
  assert.ok(files.length >= 500, `only ${files.length} files found`);
  const found = files.flatMap((file) =>
    fs
      .readFileSync(path.join(repoRoot, file), 'utf8')
      .split('\n')
      .flatMap((line, i) => issueNumbers(line).map((hit) => `${file}:${i + 1}: ${hit}`)),
  );
  assert.deepEqual(found, [], `issue numbers:\n${found.join('\n')}`);
});
