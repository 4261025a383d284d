// `npm run lint` (tools/lint/lint.mjs) runs this: every relative import of protocol/, shared/, server/,
// client/ and webview/ (static, `export ... from`, dynamic `import()`, `import('...')` types and
// `require`) against tools/lint/layers.mjs. Fails on an upward import and on any import cycle.
// Imports are read with TypeScript's own scanner (tools/lint/'s TypeScript 6: the project's
// TypeScript 7 has no JavaScript API).
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as config from './layers.mjs';
import { checkGraph } from './layer-rules.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const ts = createRequire(path.join(here, 'package.json'))('typescript');

const FOLDERS = ['protocol', 'shared', 'server', 'client', 'webview'];

function sources(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(file);
    return /\.m?ts$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

/** The file a relative specifier names: `./x.js` is `./x.ts` in the sources. */
function resolveSpecifier(from, specifier) {
  const target = path.resolve(path.dirname(from), specifier);
  for (const candidate of [
    target.replace(/\.js$/, '.ts'),
    target.replace(/\.mjs$/, '.mts'),
    target,
    `${target}.ts`,
    path.join(target, 'index.ts'),
  ]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

const relative = (file) => path.relative(root, file).split(path.sep).join('/');

export function importGraph() {
  const graph = new Map();
  for (const file of FOLDERS.flatMap((folder) => sources(path.join(root, folder)))) {
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map(({ fileName }) => fileName)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => resolveSpecifier(file, specifier))
      .filter((target) => target !== undefined)
      .map(relative);
    graph.set(relative(file), [...new Set(targets)]);
  }
  return graph;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const graph = importGraph();
  const { problems, cycles } = checkGraph(graph, config);
  for (const { from, to, why } of problems) console.error(`layers: ${from}${to ? ` -> ${to}` : ''}: ${why}`);
  for (const cycle of cycles) console.error(`layers: import cycle: ${cycle.join(' -> ')}`);
  const edges = [...graph.values()].reduce((sum, targets) => sum + targets.length, 0);
  if (problems.length || cycles.length) {
    console.error(
      `layers: ${problems.length} forbidden import(s), ${cycles.length} cycle(s) in ${graph.size} files (tools/lint/layers.mjs)`,
    );
    process.exit(1);
  }
  console.log(
    `layers: ${graph.size} files, ${edges} imports, ${config.knownViolations.length} known violation(s) left, no cycle`,
  );
}
