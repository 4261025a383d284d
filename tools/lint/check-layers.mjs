// `npm run lint` (tools/lint/lint.mjs) runs this: the import graph of the sources
// (tools/lint/import-graph.mjs) against tools/lint/layers.mjs. Fails on an upward import, on any
// import cycle, and on a package imported or loaded outside the units declared for it.
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as config from './layers.mjs';
import { importGraph } from './import-graph.mjs';
import { checkGraph } from './layer-rules.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const graph = importGraph(root);
if (![...graph.keys()].some((file) => file.startsWith('server/'))) {
  console.error(`layers: no sources found under ${root}`);
  process.exit(1);
}
const { problems, cycles } = checkGraph(graph, config);
for (const { from, to, why } of problems) console.error(`layers: ${from}${to ? ` -> ${to}` : ''}: ${why}`);
for (const cycle of cycles) console.error(`layers: import cycle: ${cycle.join(' -> ')}`);
const edges = [...graph.values()].reduce((sum, targets) => sum + targets.length, 0);
if (problems.length || cycles.length) {
  console.error(
    `layers: ${problems.length} forbidden import(s), ${cycles.length} cycle(s) in ${graph.size} files ` +
      '(tools/lint/layers.mjs)',
  );
  process.exit(1);
}
console.log(`layers: ${graph.size} files, ${edges} imports, ${config.packages.length} package rules, no cycle`);
