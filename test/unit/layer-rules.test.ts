/**
 * The import rules `npm run lint` applies (tools/lint/layer-rules.mjs with tools/lint/layers.mjs, over
 * the graph tools/lint/import-graph.mjs reads): every import form is read, type-only ones marked; an
 * upward import, a side reaching into the server, a cycle, and a package imported or loaded outside
 * its declared units each fail; and every folder and top-level module of server/ has its place in
 * the declared layers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot, tempDir } from '../helpers/temp.js';

/** A file imported for its code, or { file } / { package } (`type: true` for `import type`). */
type Import = string | { file?: string; package?: string; type?: true };
type Graph = Map<string, Import[]>;
interface PackageRule {
  names: string[];
  in: string[];
  types?: string[];
  loadedIn?: string[];
  why: string;
}
interface Config {
  layers: string[];
  sides: Record<string, string[]>;
  unchecked?: string[];
  packages?: PackageRule[];
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
interface Reader {
  parserInstalled: boolean;
  importsOf(fileName: string, text: string): Array<{ specifier: string; type: boolean }>;
  importGraph(root: string): Graph;
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

test('a cycle fails, a dynamic or type import counting as much as a static one', async () => {
  const { checkGraph } = await load<Rules>('layer-rules.mjs');
  const graph: Graph = new Map([
    ['server/gateway/a.ts', ['server/gateway/b.ts']],
    ['server/gateway/b.ts', ['server/gateway/c.ts']],
    ['server/gateway/c.ts', [{ file: 'server/gateway/a.ts', type: true }, 'server/gateway/d.ts']],
    ['server/gateway/d.ts', [{ package: 'pg' }]],
  ]);
  assert.deepEqual(checkGraph(graph, config).cycles, [
    ['server/gateway/a.ts', 'server/gateway/b.ts', 'server/gateway/c.ts'],
  ]);
});

test('a cycle among files the layers leave unchecked (tests, build scripts) fails too', async () => {
  const { checkGraph } = await load<Rules>('layer-rules.mjs');
  const graph: Graph = new Map([
    ['test/helpers/a.ts', [{ file: 'test/helpers/b.ts', type: true }]],
    ['test/helpers/b.ts', ['test/helpers/a.ts', 'server/runtime.ts']],
    ['server/runtime.ts', []],
  ]);
  assert.deepEqual(checkGraph(graph, config), { problems: [], cycles: [['test/helpers/a.ts', 'test/helpers/b.ts']] });
});

test('the reader sees every import form, marks type-only ones, and skips strings and comments', async (t) => {
  const { parserInstalled, importsOf } = await load<Reader>('import-graph.mjs');
  if (!parserInstalled) return t.skip("tools/lint/'s TypeScript is not installed: `npm run lint` installs it");
  const text = [
    "import a from './a.js';",
    "import type { B } from './b.js';",
    "import { type C } from './c.js';",
    "export { d } from './d.js';",
    "export type { E } from './e.js';",
    "export * from './f.js';",
    "import g = require('./g.js');",
    'export async function later() {',
    "  const h = await import('./h.js');",
    "  return [h, require('./i.js')];",
    '}',
    "let j: import('./j.js').J;",
    "import 'side-effect';",
    "const quoted = \"import no from './no.js'\"; // import no2 from './no2'",
    "const template = `export * from './no3.js'`; /* require('./no4') */",
  ].join('\n');
  assert.deepEqual(importsOf('x.ts', text), [
    { specifier: './a.js', type: false },
    { specifier: './b.js', type: true },
    { specifier: './c.js', type: false },
    { specifier: './d.js', type: false },
    { specifier: './e.js', type: true },
    { specifier: './f.js', type: false },
    { specifier: './g.js', type: false },
    { specifier: './h.js', type: false },
    { specifier: './i.js', type: false },
    { specifier: './j.js', type: true },
    { specifier: 'side-effect', type: false },
  ]);
});

test('the graph: relative imports as files, bare ones as packages, no Node modules, loading if any import of a file loads', async (t) => {
  const { parserInstalled, importGraph } = await load<Reader>('import-graph.mjs');
  if (!parserInstalled) return t.skip("tools/lint/'s TypeScript is not installed: `npm run lint` installs it");
  const { dir, cleanup } = tempDir();
  t.after(cleanup);
  fs.mkdirSync(path.join(dir, 'server', 'util'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'server', 'a.ts'),
    [
      "import * as fs from 'node:fs';",
      "import * as os from 'os';",
      "import type { Pool } from 'pg';",
      "import { Client } from 'pg/lib/client.js';",
      "import type { Tool } from '@modelcontextprotocol/sdk/types.js';",
      "export { b } from './util/b.js';",
      "import type { B } from './util/b.js';",
      "import type { Gone } from './gone.js';",
    ].join('\n'),
  );
  fs.writeFileSync(path.join(dir, 'server', 'util', 'b.ts'), "export const b = await import('../a.js');");
  assert.deepEqual(
    importGraph(dir),
    new Map<string, Import[]>([
      [
        'server/a.ts',
        [{ package: 'pg' }, { package: '@modelcontextprotocol/sdk', type: true }, { file: 'server/util/b.ts' }],
      ],
      ['server/util/b.ts', [{ file: 'server/a.ts' }]],
    ]),
  );
});

/** The small layers of these tests with the package rules tools/lint/layers.mjs declares. */
async function declaredPackages(): Promise<Config> {
  const declared = await load<Config>('layers.mjs');
  return {
    layers: ['protocol/', 'server/util/', 'server/store/', 'server/resolve/', 'server/upstream/', 'server/calls/'],
    sides: { 'client/': [] },
    unchecked: ['test/'],
    packages: declared.packages,
  };
}

const lines = (problems: Problem[]) => problems.map((p) => `${p.from} -> ${p.to}`);

test('vscode in server/util, pg in server/calls, the MCP SDK in server/resolve and SDK v1 in server/ each fail', async () => {
  const { checkGraph } = await load<Rules>('layer-rules.mjs');
  const graph: Graph = new Map([
    ['server/util/editor.ts', [{ package: 'vscode' }]],
    ['server/calls/rows.ts', [{ package: 'pg' }]],
    ['server/resolve/mcp.ts', [{ package: '@modelcontextprotocol/client', type: true }]],
    ['server/util/mcp-types.ts', [{ package: '@modelcontextprotocol/server' }]],
    ['server/calls/sdk-values.ts', [{ package: '@modelcontextprotocol/sdk' }]],
    ['server/calls/sdk-types.ts', [{ package: '@modelcontextprotocol/sdk', type: true }]],
  ]);
  const { problems } = checkGraph(graph, await declaredPackages());
  assert.deepEqual(lines(problems), [
    'server/util/editor.ts -> vscode',
    'server/calls/rows.ts -> pg',
    'server/util/mcp-types.ts -> @modelcontextprotocol/server',
    'server/resolve/mcp.ts -> @modelcontextprotocol/client',
    'server/calls/sdk-values.ts -> @modelcontextprotocol/sdk',
    'server/calls/sdk-types.ts -> @modelcontextprotocol/sdk',
  ]);
  assert.match(problems[0]!.why, /^only client\/, test\/extension\/suite\/ import vscode \(the VS Code API/);
  assert.match(problems[1]!.why, /^only server\/store\/postgres\/, test\/ import pg /);
  assert.match(
    problems[2]!.why,
    /^only server\/gateway\/, .*, and for its types only server\/util\/mcp-types\.ts, import @modelcontextprotocol\/server /,
  );
  assert.match(problems[5]!.why, /^only test\/ import @modelcontextprotocol\/sdk /);
});

test('each package where declared passes: vscode in client/, pg in the PostgreSQL store, the SDK in the gateway', async () => {
  const { checkGraph } = await load<Rules>('layer-rules.mjs');
  const graph: Graph = new Map([
    ['client/extension.ts', [{ package: 'vscode' }, { package: 'vscode-languageclient' }, 'client/log.ts']],
    ['client/log.ts', [{ package: 'vscode', type: true }]],
    ['server/store/postgres/pg-store.ts', [{ package: 'pg' }]],
    ['server/store/open-store.ts', ['server/store/postgres/pg-store.ts']],
    ['server/calls/pipeline.ts', ['server/store/open-store.ts', 'server/upstream/connection.ts']],
    ['server/upstream/connection.ts', [{ package: '@modelcontextprotocol/client' }]],
    ['server/util/mcp-types.ts', [{ package: '@modelcontextprotocol/server', type: true }]],
    ['server/calls/results.ts', [{ file: 'server/util/mcp-types.ts', type: true }]],
    ['test/extension/suite/tests.ts', [{ package: 'vscode' }, 'client/extension.ts']],
    ['test/unit/client-log.test.ts', ['client/log.ts']],
    ['test/integration/postgres.test.ts', [{ package: 'pg' }, { package: '@modelcontextprotocol/sdk' }]],
  ]);
  assert.deepEqual(checkGraph(graph, await declaredPackages()).problems, []);
});

test('loading vscode through a chain of imports fails, the chain named; type imports load nothing', async () => {
  const { checkGraph } = await load<Rules>('layer-rules.mjs');
  const graph: Graph = new Map([
    ['client/commands.ts', ['client/gateway-client.ts']],
    ['client/gateway-client.ts', [{ package: 'vscode-languageclient' }, { package: 'vscode', type: true }]],
    ['client/log.ts', [{ package: 'vscode', type: true }]],
    ['test/unit/commands.test.ts', ['client/commands.ts']],
    ['test/unit/log.test.ts', ['client/log.ts', { file: 'client/commands.ts', type: true }]],
    ['test/helpers/editor.ts', ['test/unit/commands.test.ts']],
  ]);
  const { problems } = checkGraph(graph, await declaredPackages());
  assert.deepEqual(lines(problems), [
    'test/unit/commands.test.ts -> client/commands.ts -> client/gateway-client.ts -> vscode-languageclient',
  ]);
  assert.match(
    problems[0]!.why,
    /^loads vscode-languageclient, which only client\/, test\/extension\/suite\/ may load/,
  );
});

test('a server module reaching vscode through client/ fails as an upward import and as loading vscode', async () => {
  const { checkGraph } = await load<Rules>('layer-rules.mjs');
  const graph: Graph = new Map([
    ['server/util/notify.ts', ['server/util/show.ts']],
    ['server/util/show.ts', ['client/status-bar.ts']],
    ['client/status-bar.ts', [{ package: 'vscode' }]],
  ]);
  const { problems } = checkGraph(graph, await declaredPackages());
  assert.deepEqual(lines(problems), [
    'server/util/show.ts -> client/status-bar.ts',
    'server/util/show.ts -> client/status-bar.ts -> vscode',
  ]);
});

test('pg and the SDK stay out of the extension host, even through a module the client may share', async () => {
  const { checkGraph } = await load<Rules>('layer-rules.mjs');
  const config = { ...(await declaredPackages()), sides: { 'client/': ['server/util/shared.ts'] } };
  const graph: Graph = new Map([
    ['client/adoption.ts', ['server/util/shared.ts']],
    ['server/util/shared.ts', ['server/store/postgres/pg-url.ts', 'server/upstream/transport.ts']],
    ['server/store/postgres/pg-url.ts', [{ package: 'pg' }]],
    ['server/upstream/transport.ts', [{ package: '@modelcontextprotocol/client' }]],
  ]);
  const { problems } = checkGraph(graph, config);
  assert.deepEqual(lines(problems), [
    'server/util/shared.ts -> server/store/postgres/pg-url.ts',
    'server/util/shared.ts -> server/upstream/transport.ts',
    'client/adoption.ts -> server/util/shared.ts -> server/store/postgres/pg-url.ts -> pg',
    'client/adoption.ts -> server/util/shared.ts -> server/upstream/transport.ts -> @modelcontextprotocol/client',
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
