/**
 * No new import cycles in protocol/, server/, client/ and webview/ (type imports and dynamic import() count: they tie modules together just
 * as much). Tarjan's strongly connected components over the relative imports of the .ts sources:
 * there are none, and none may come back.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../helpers/temp.js';

function sources(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.m?ts$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of ['protocol', 'server', 'client', 'webview'].flatMap((folder) =>
    sources(path.join(repoRoot, folder)),
  )) {
    const text = fs.readFileSync(file, 'utf8');
    const targets = [
      ...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'";]*?['"](\.[^'"]+)['"]/g),
      ...text.matchAll(/\b(?:import|require)\(\s*['"](\.[^'"]+)['"]\s*\)/g),
    ]
      .map((match) => path.resolve(path.dirname(file), match[1]!.replace(/\.js$/, '.ts').replace(/\.mjs$/, '.mts')))
      .filter((target) => fs.existsSync(target));
    graph.set(file, targets);
  }
  return graph;
}

/** Groups of two or more files that import each other, directly or around a loop. */
export function cycleGroups(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1) groups.push(group);
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return groups;
}

test('the cycle finder finds a loop of three and leaves a chain alone', () => {
  const groups = cycleGroups(
    new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
    ]),
  );
  assert.deepEqual(
    groups.map((g) => g.sort()),
    [['a', 'b', 'c']],
  );
});

test('no import cycle in protocol/, server/, client/ and webview/', () => {
  const graph = importGraph();
  assert.ok(graph.size > 200, `only ${graph.size} sources found`);
  const found = cycleGroups(graph).map((group) =>
    group
      .map((file) => path.relative(repoRoot, file).split(path.sep).join('/'))
      .sort()
      .join(' '),
  );
  assert.deepEqual(found, []);
});
