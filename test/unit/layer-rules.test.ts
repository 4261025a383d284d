/**
 * The layer rules `npm run lint` applies (tools/lint/layer-rules.mjs with tools/lint/layers.mjs): an
 * upward import, a side reaching into the server, a cycle and a stale known violation each fail;
 * and every folder and top-level module of server/ has its place in the declared layers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../helpers/temp.js';

type Graph = Map<string, string[]>;
interface Config {
  layers: string[];
  sides: Record<string, string[]>;
  unchecked?: string[];
  knownViolations?: Array<{ from: string; to: string }>;
}
interface Problem {
  from: string;
  to: string;
  why: string;
}
interface Rules {
  checkGraph(graph: Graph, config: Config): { problems: Problem[]; cycles: string[][] };
  unitOf(file: string, units: string[]): string | undefined;
}

const load = <T>(file: string): Promise<T> =>
  import(pathToFileURL(path.join(repoRoot, 'tools', 'lint', file)).href) as Promise<T>;

const config: Config = {
  layers: ['protocol/', 'shared/', 'server/util/', 'server/store/', 'server/gateway/', 'server/runtime.ts'],
  sides: { 'client/': ['shared/'] },
  unchecked: ['test/'],
};

test('imports down the layers, inside a unit, and from a side to protocol/ and its shared units pass', async () => {
  const { checkGraph } = await load<Rules>('layer-rules.mjs');
  const graph: Graph = new Map([
    ['server/runtime.ts', ['server/gateway/gateway.ts', 'protocol/records.ts']],
    ['server/gateway/gateway.ts', ['server/gateway/ports.ts', 'server/store/store.ts']],
    ['server/gateway/ports.ts', []],
    ['server/store/store.ts', ['server/util/hash.ts', 'shared/jsonc.ts']],
    ['client/extension.ts', ['protocol/records.ts', 'shared/jsonc.ts', 'client/log.ts']],
    ['test/unit/x.test.ts', ['server/runtime.ts', 'client/extension.ts']],
  ]);
  assert.deepEqual(checkGraph(graph, config), { problems: [], cycles: [] });
});

test('an upward import, a side reaching past its shared units and an undeclared folder each fail', async () => {
  const { checkGraph } = await load<Rules>('layer-rules.mjs');
  const graph: Graph = new Map([
    ['server/store/pg.ts', ['server/gateway/events.ts']],
    ['protocol/records.ts', ['server/util/hash.ts']],
    ['client/commands.ts', ['server/store/pg.ts', 'server/util/hash.ts']],
    ['server/elsewhere/x.ts', []],
  ]);
  const { problems } = checkGraph(graph, config);
  assert.deepEqual(
    problems.map((p) => `${p.from} -> ${p.to}`),
    [
      'server/store/pg.ts -> server/gateway/events.ts',
      'protocol/records.ts -> server/util/hash.ts',
      'client/commands.ts -> server/store/pg.ts',
      'client/commands.ts -> server/util/hash.ts',
      'server/elsewhere/x.ts -> ',
    ],
  );
});

test('a known violation passes while it is imported, and fails once it is gone', async () => {
  const { checkGraph } = await load<Rules>('layer-rules.mjs');
  const known = { ...config, knownViolations: [{ from: 'server/store/pg.ts', to: 'server/gateway/events.ts' }] };
  assert.deepEqual(checkGraph(new Map([['server/store/pg.ts', ['server/gateway/events.ts']]]), known).problems, []);
  const { problems } = checkGraph(new Map([['server/store/pg.ts', []]]), known);
  assert.equal(problems.length, 1);
  assert.match(problems[0]!.why, /no longer imported/);
});

test('a cycle fails, a dynamic or type import counting as much as a static one', async () => {
  const { checkGraph } = await load<Rules>('layer-rules.mjs');
  const graph: Graph = new Map([
    ['server/gateway/a.ts', ['server/gateway/b.ts']],
    ['server/gateway/b.ts', ['server/gateway/c.ts']],
    ['server/gateway/c.ts', ['server/gateway/a.ts', 'server/gateway/d.ts']],
    ['server/gateway/d.ts', []],
  ]);
  assert.deepEqual(checkGraph(graph, config).cycles, [
    ['server/gateway/a.ts', 'server/gateway/b.ts', 'server/gateway/c.ts'],
  ]);
});

test('every folder and top-level module of server/ has a place in tools/lint/layers.mjs', async () => {
  const declared = await load<Config>('layers.mjs');
  const { unitOf } = await load<Rules>('layer-rules.mjs');
  const entries = fs
    .readdirSync(path.join(repoRoot, 'server'), { withFileTypes: true })
    .filter((e) => e.isDirectory() || e.name.endsWith('.ts'));
  const placeless = entries
    .map((e) => (e.isDirectory() ? `server/${e.name}/x.ts` : `server/${e.name}`))
    .filter(
      (file) => !unitOf(file, declared.layers) && !(declared.unchecked ?? []).some((prefix) => file.startsWith(prefix)),
    );
  assert.deepEqual(placeless, []);
  assert.equal(new Set(declared.layers).size, declared.layers.length, 'each unit once');
});

test('docs/ARCHITECTURE.md lists the layers of tools/lint/layers.mjs, in their order', async () => {
  const declared = await load<Config>('layers.mjs');
  const page = fs.readFileSync(path.join(repoRoot, 'docs', 'ARCHITECTURE.md'), 'utf8');
  const block = page.split('Lowest first:\n\n')[1]?.split('\n\n')[0] ?? '';
  const listed = block
    .split('<')
    .map((unit) => unit.trim())
    .filter(Boolean);
  assert.deepEqual(
    listed,
    declared.layers.map((unit) => unit.replace(/^server\//, '')),
  );
});
