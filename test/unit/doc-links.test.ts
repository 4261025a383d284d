/**
 * No pointer to a file that is not there, in the docs or in the code's comments.
 *
 * Checked:
 * - in every Markdown file, each link target that is not a URL or an anchor (from the file's folder);
 * - in every Markdown file, each code span that looks like a repository file, and in the comments of
 *   the TypeScript and script sources (test/fixtures/ aside: upstream data and servers), each word
 *   that looks like one.
 *
 * Looks like a repository file: a path with a file extension and a folder in it (`docs/settings.md`,
 * `gateway/ports.ts`), or a root document's capitalized name (`CHANGELOG.md`). It is there when it
 * resolves from the repository's root, from the file's own folder, from server/ (how comments and
 * docs/ARCHITECTURE.md name the gateway's modules), or as the end of one existing path
 * (`harness/setup.ts`); a `.js` name also matches its `.ts` or `.mts` source.
 *
 * Not pointers into this repository, so not checked: URLs; absolute and home paths (`/opt/x/main.js`,
 * `~/.grimoire/settings.json`); build output and packages (`out/`, `dist/`, `node_modules/`,
 * `@scope/package/x.js`); files in the user's workspace under a dot-folder the repository does not
 * have (`.vscode/mcp.json`, `.cursor/mcp.json`); and the few names below, which are other tools' files.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../helpers/temp.js';

/** Names of files that are not the repository's, each with where it lives. */
const NOT_OURS: Record<string, string> = {
  'POWER.md': "a Kiro power's description, in the user's Kiro folders",
  'THIRD-PARTY-NOTICES.md': 'written into dist/semantic/ by the package build',
  './x.js': 'an example of a relative import specifier (tools/lint/check-layers.mjs)',
  './x.ts': 'the same example, as its source',
};

const SKIPPED_FOLDERS = new Set(['node_modules', 'out', 'dist', '.git', '.vscode-test', '.grimoire-test']);

/** Every file and folder of the repository as a path from its root ('docs/', 'docs/cli.md'). */
function walk(dir: string): string[] {
  return fs.readdirSync(path.join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED_FOLDERS.has(entry.name)) return [];
    const relative = dir ? `${dir}/${entry.name}` : entry.name;
    return entry.isDirectory() ? [`${relative}/`, ...walk(relative)] : [relative];
  });
}

const FILE_EXTENSION = /\.(ts|mts|mjs|cjs|js|json|jsonc|md|ya?ml|css|html|sh|svg|png|txt)$/;
const ROOT_DOCUMENT = /^[A-Z][A-Z_-]*\.md$/;

/** Whether a word or code span looks like a file of this repository (see the rule at the top). */
export function looksLikeRepoFile(span: string, repoFolders: ReadonlySet<string>): boolean {
  if (!/^[\w./-]+$/.test(span) || !FILE_EXTENSION.test(span) || span in NOT_OURS) return false;
  if (span.startsWith('/') || /^(out|dist|node_modules)\//.test(span) || span.includes('/node_modules/')) return false;
  const first = span.split('/')[0]!;
  if (span.includes('/') && first.startsWith('.') && first !== '.' && first !== '..' && !repoFolders.has(`${first}/`))
    return false;
  return span.includes('/') || ROOT_DOCUMENT.test(span);
}

/** The repository paths a span may name, from `from` (a file's path from the root). */
export function resolves(span: string, from: string, tree: readonly string[]): boolean {
  const names = [span, ...(span.endsWith('.js') ? [span.replace(/\.js$/, '.ts'), span.replace(/\.js$/, '.mts')] : [])];
  const here = path.posix.dirname(from);
  return names.some((name) =>
    [name, path.posix.normalize(path.posix.join(here, name)), `server/${name}`].some(
      (candidate) =>
        tree.includes(candidate) || tree.includes(`${candidate}/`) || tree.some((file) => file.endsWith(`/${name}`)),
    ),
  );
}

/** The words of a source's comments: block comments, and line comments not inside a URL. */
export function commentWords(source: string): string[] {
  const comments = [
    ...[...source.matchAll(/\/\*[\s\S]*?\*\//g)].map((m) => m[0]),
    ...[...source.matchAll(/(?:^|[^:'"\\])\/\/(.*)$/gm)].map((m) => m[1]!),
  ];
  return comments.flatMap((comment) => comment.split(/[\s`'"(),;*]+/)).map((word) => word.replace(/[.:]+$/, ''));
}

/** A Markdown file's relative link targets (anchors and queries cut) and its code spans. */
export function markdownPointers(text: string): { links: string[]; spans: string[] } {
  const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^([a-z][\w+.-]*:|#)/i.test(target))
    .map((target) => target.replace(/[#?].*$/, ''));
  const spans = [...text.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]!.replace(/[.:,]+$/, ''));
  return { links, spans };
}

const tree = walk('');
const repoFolders = new Set(tree.filter((entry) => entry.endsWith('/') && !entry.slice(0, -1).includes('/')));

/** Every pointer of the repository's docs and comments, as `file: span`, with whether it is there. */
function pointers(): Array<{ where: string; there: boolean }> {
  const found: Array<{ where: string; there: boolean }> = [];
  for (const file of tree) {
    if (file.endsWith('.md')) {
      const { links, spans } = markdownPointers(fs.readFileSync(path.join(repoRoot, file), 'utf8'));
      for (const link of links)
        found.push({
          where: `${file}: (${link})`,
          there: fs.existsSync(path.join(repoRoot, path.posix.dirname(file), link)),
        });
      for (const span of spans.filter((s) => looksLikeRepoFile(s, repoFolders)))
        found.push({ where: `${file}: ${span}`, there: resolves(span, file, tree) });
    } else if (/\.(ts|mts|mjs)$/.test(file) && !file.startsWith('test/fixtures/')) {
      const words = commentWords(fs.readFileSync(path.join(repoRoot, file), 'utf8'));
      for (const word of new Set(words.filter((w) => looksLikeRepoFile(w, repoFolders))))
        found.push({ where: `${file}: ${word}`, there: resolves(word, file, tree) });
    }
  }
  return found;
}

test('what looks like a repository file, and what does not', () => {
  const folders = new Set(['docs/', 'server/', '.ci/']);
  for (const span of ['docs/settings.md', 'gateway/ports.ts', 'DESIGN.md', '../test/x.ts', '.ci/lib.sh'])
    assert.equal(looksLikeRepoFile(span, folders), true, span);
  for (const span of [
    'settings.json',
    '/opt/grimoire/out/server/cli/main.js',
    'out/server/cli/main.js',
    'dist/extension.js',
    '.vscode/mcp.json',
    'POWER.md',
    'server/gateway',
    'https://example.com/a.md',
  ])
    assert.equal(looksLikeRepoFile(span, folders), false, span);
});

test('a pointer resolves from the root, the file, server/, or as the end of one path; .js names its source', () => {
  const files = ['docs/cli.md', 'server/gateway/ports.ts', 'test/extension/harness/setup.ts', 'tools/lint/lint.mjs'];
  assert.equal(resolves('docs/cli.md', 'README.md', files), true);
  assert.equal(resolves('cli.md', 'docs/settings.md', files), true);
  assert.equal(resolves('gateway/ports.ts', 'server/calls/x.ts', files), true);
  assert.equal(resolves('harness/setup.js', 'test/extension/browser/page.ts', files), true);
  assert.equal(resolves('DESIGN.md', 'server/gateway/gateway-tools.ts', files), false);
  assert.equal(resolves('docs/performance-history.md', 'README.md', files), false);
});

test('comments and Markdown give up their pointers, not their URLs', () => {
  const source = 'const url = "https://x.org/a.md"; // see `docs/cli.md`.\n/** From server/log.ts: */';
  assert.deepEqual(
    commentWords(source).filter((word) => looksLikeRepoFile(word, new Set(['docs/', 'server/']))),
    ['server/log.ts', 'docs/cli.md'],
  );
  assert.deepEqual(markdownPointers('[a](cli.md#flags) [b](https://x.org/y.md) [c](#top) `docs/x.md`.'), {
    links: ['cli.md'],
    spans: ['docs/x.md'],
  });
});

test('every file the docs and the code comments point to is there', () => {
  const all = pointers();
  assert.ok(all.length >= 300, `only ${all.length} pointers found`);
  const missing = all.filter((pointer) => !pointer.there).map((pointer) => pointer.where);
  assert.deepEqual(missing, [], `pointers to files that are not there:\n${missing.join('\n')}`);
});
