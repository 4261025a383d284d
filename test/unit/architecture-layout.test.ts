/**
 * docs/ARCHITECTURE.md against the tree: every path the page names exists, and every folder and
 * top-level module of server/ is on the page. A move or a new folder that the page does not follow
 * fails here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../helpers/temp.js';

const page = fs.readFileSync(path.join(repoRoot, 'docs', 'ARCHITECTURE.md'), 'utf8');

/** Every file and folder under the repository's own code, as paths from its root ('server/gateway/', 'server/gateway/gateway.ts'). */
function tree(dir: string): string[] {
  return fs.readdirSync(path.join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules') return [];
    const relative = `${dir}/${entry.name}`;
    return entry.isDirectory() ? [`${relative}/`, ...tree(relative)] : [relative];
  });
}

const paths = ['server', 'shared', 'client', 'protocol', 'test', 'webview', 'tools', 'docs']
  .filter((dir) => fs.existsSync(path.join(repoRoot, dir)))
  .flatMap((dir) => [`${dir}/`, ...tree(dir)]);

/**
 * The page's code spans that name a source file or a folder (`gateway/ports.ts`, `rpc/`, `activation.ts`);
 * links outside the repository left out.
 */
const named = [
  ...new Set(
    [...page.matchAll(/`([^`\s]+)`/g)]
      .map((m) => m[1]!)
      .filter((span) => /^[\w./-]+(\.ts|\/)$/.test(span) && !span.startsWith('../')),
  ),
];

test('the architecture page names code spans to check', () => {
  assert.ok(named.length >= 40, `only ${named.length} paths found on the page`);
});

/**
 * What a span names: the path from the repository root, else from server/ (the page's usual frame),
 * else the one file or folder anywhere whose path ends with it. A bare name that fits two (three
 * `types.ts`) names none of them precisely.
 */
export function resolveSpan(span: string, tree: string[]): string[] {
  if (tree.includes(span)) return [span];
  if (tree.includes(`server/${span}`)) return [`server/${span}`];
  return tree.filter((file) => file.endsWith(`/${span}`));
}

test('a span resolves from the root, then from server/, then only when one path ends with it', () => {
  const tree = [
    'server/log.ts',
    'client/log.ts',
    'server/powers/types.ts',
    'server/resolve/types.ts',
    'server/gateway/ports.ts',
    'protocol/records.ts',
  ];
  assert.deepEqual(resolveSpan('log.ts', tree), ['server/log.ts']);
  assert.deepEqual(resolveSpan('gateway/ports.ts', tree), ['server/gateway/ports.ts']);
  assert.deepEqual(resolveSpan('records.ts', tree), ['protocol/records.ts']);
  assert.equal(resolveSpan('types.ts', tree).length, 2);
  assert.deepEqual(resolveSpan('nowhere.ts', tree), []);
});

test('every path the architecture page names exists, and names one file or folder', () => {
  const missing = named.filter((span) => resolveSpan(span, paths).length === 0);
  assert.deepEqual(missing, [], `docs/ARCHITECTURE.md names paths that do not exist: ${missing.join(', ')}`);
  const ambiguous = named
    .filter((span) => resolveSpan(span, paths).length > 1)
    .map((span) => `${span} (${resolveSpan(span, paths).join(', ')})`);
  assert.deepEqual(
    ambiguous,
    [],
    `docs/ARCHITECTURE.md names paths that fit more than one file: write their folder: ${ambiguous.join('; ')}`,
  );
});

test('every folder and top-level module of server/ is on the architecture page', () => {
  const entries = fs.readdirSync(path.join(repoRoot, 'server'), { withFileTypes: true });
  const expected = entries
    .filter((e) => e.isDirectory() || e.name.endsWith('.ts'))
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name));
  const absent = expected.filter((name) => !page.includes(`\`${name}\``) && !page.includes(`\`server/${name}\``));
  assert.deepEqual(absent, [], `server/ has what docs/ARCHITECTURE.md does not mention: ${absent.join(', ')}`);
});
