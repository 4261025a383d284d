/** The development sets ship with the repository: calibrate, bench and the routing check need nothing beside a clone. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BUNDLED_BENCHMARKS, benchmarksDir } from '../../server/bench/dataset.js';
import { devSets } from '../../server/bench/calibrate.js';
import { readJsonl, type BenchQuery } from '../../server/bench/dataset.js';
import { repoRoot } from '../helpers/temp.js';

test('by default the development sets are the repository own test/fixtures/benchmarks/, every file of every set there', () => {
  assert.equal(benchmarksDir(undefined, {}), path.join(repoRoot, 'test', 'fixtures', 'benchmarks'));
  assert.equal(BUNDLED_BENCHMARKS, path.join(repoRoot, 'test', 'fixtures', 'benchmarks'));
  const sets = devSets(benchmarksDir(undefined, {}));
  assert.equal(sets.length, 6);
  for (const set of sets) {
    for (const file of [set.servers, set.tools, set.queries].filter((f): f is string => f !== undefined))
      assert.ok(fs.statSync(file).size > 1000, file);
    const queries = readJsonl<BenchQuery>(set.queries);
    assert.ok(
      queries.length >= 104 && queries.every((q) => q.gt_servers?.length),
      `${set.name}: ${queries.length} queries, each with its right servers`,
    );
  }
});

test('each public set carries its licence, and the folder its provenance', () => {
  assert.match(fs.readFileSync(path.join(BUNDLED_BENCHMARKS, 'metatool', 'LICENSE'), 'utf8'), /^MIT License/);
  assert.match(
    fs.readFileSync(path.join(BUNDLED_BENCHMARKS, 'mcp-bench', 'LICENSE'), 'utf8'),
    /Apache License\s+Version 2\.0/,
  );
  const readme = fs.readFileSync(path.join(BUNDLED_BENCHMARKS, 'README.md'), 'utf8');
  assert.match(readme, /HowieHwong\/MetaTool @ 35e81bb \| MIT/);
  assert.match(readme, /Accenture\/mcp-bench @ 09e5233 \| Apache-2\.0/);
});

test('--benchmarks DIR wins over GRIMOIRE_BENCHMARKS, which wins over the repository own; an empty variable is unset', () => {
  assert.equal(benchmarksDir('/named', { GRIMOIRE_BENCHMARKS: '/env' }), '/named');
  assert.equal(benchmarksDir(undefined, { GRIMOIRE_BENCHMARKS: '/env' }), '/env');
  assert.equal(benchmarksDir(undefined, { GRIMOIRE_BENCHMARKS: '' }), BUNDLED_BENCHMARKS);
});

test('nothing in the repository points at folders beside it', () => {
  // `../shared/` (or `'..', 'shared'`) with more `..` than the file is deep leaves the repository: the
  // machine's shared folder beside it. The repository's own shared/ is reached with fewer.
  const outside = (rel: string, text: string): boolean => {
    const depth = path
      .dirname(rel)
      .split(path.sep)
      .filter((part) => part !== '.').length;
    const ups = [
      ...[...text.matchAll(/((?:\.\.\/)+)shared\//g)].map((m) => m[1]!.length / 3),
      ...[...text.matchAll(/((?:'\.\.', )+)'shared'/g)].map((m) => m[1]!.length / 6),
    ];
    return ups.some((up) => up > depth);
  };
  const offenders: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(repoRoot, dir), { withFileTypes: true })) {
      const rel = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (
          !['node_modules', 'out', 'dist', '.git', '.vscode-test', 'fixtures'].includes(entry.name) &&
          !entry.name.startsWith('.wip')
        )
          walk(rel);
      } else if (/\.(ts|mjs|js|json|md|yaml|yml)$|^run$/.test(entry.name) && entry.name !== 'benchmarks-dir.test.ts') {
        if (outside(rel, fs.readFileSync(path.join(repoRoot, rel), 'utf8'))) offenders.push(rel);
      }
    }
  };
  walk('.');
  assert.deepEqual(offenders, []);
});
