// The rules of tools/lint/layers.mjs applied to an import graph (Map: file -> its imports, paths from
// the repository root with '/'; tools/lint/import-graph.mjs reads it from the sources). No
// dependencies: test/unit/layer-rules.test.ts runs it on small graphs.

/** Whether a unit (a folder ending in '/', or a file) holds `file`. */
const holds = (unit, file) => (unit.endsWith('/') ? file.startsWith(unit) : file === unit);

/** The layer unit a file belongs to: the longest declared folder or file that holds it. */
export function unitOf(file, units) {
  let best;
  for (const unit of units) if (holds(unit, file) && (!best || unit.length > best.length)) best = unit;
  return best;
}

/** Whether `file` is in one of `units`. */
const within = (file, units) => units.some((unit) => holds(unit, file));

/** An import as { file } or { package }, `type: true` for types only; a plain string: a file imported for its code. */
const edgeOf = (target) => (typeof target === 'string' ? { file: target } : target);

/**
 * Every import the declaration forbids, as { from, to, why } (`to` a file, a package, or the chain of
 * files down to a package), and every cycle, as a list of files. `graph`: file -> imports, each a
 * file path (a plain string) or { file } / { package }, with `type: true` when it imports types
 * only. `config`: { layers, sides, unchecked, packages }; `unchecked` files skip the layers only:
 * cycles and package rules cover every file.
 */
export function checkGraph(graph, config) {
  const { layers, sides, unchecked = [], packages = [] } = config;
  const rank = new Map(layers.map((unit, index) => [unit, index]));
  const sideUnits = Object.keys(sides);
  const problems = [];
  const files = new Map(
    [...graph].map(([file, targets]) => [file, targets.map(edgeOf).flatMap((edge) => (edge.file ? [edge.file] : []))]),
  );
  for (const [from, targets] of files) {
    if (within(from, unchecked)) continue;
    const side = unitOf(from, sideUnits);
    const fromUnit = unitOf(from, layers);
    if (!side && fromUnit === undefined) {
      problems.push({ from, to: '', why: 'is in no declared layer (tools/lint/layers.mjs)' });
      continue;
    }
    for (const to of targets) {
      if (side) {
        if (to.startsWith(side) || to.startsWith('protocol/') || unitOf(to, sides[side])) continue;
        problems.push({ from, to, why: `${side} imports only itself, protocol/ and the shared units listed for it` });
        continue;
      }
      const toUnit = unitOf(to, layers);
      if (toUnit === undefined) {
        problems.push({ from, to, why: 'imports outside the declared layers' });
        continue;
      }
      if (toUnit !== fromUnit && rank.get(toUnit) > rank.get(fromUnit))
        problems.push({ from, to, why: `${fromUnit} is below ${toUnit}` });
    }
  }
  for (const rule of packages) problems.push(...packageProblems(graph, rule));
  return { problems, cycles: cycleGroups(files) };
}

/**
 * One package rule over the whole graph: a file outside `rule.in` that imports one of `rule.names`
 * (outside `rule.types` for an `import type`), and a file outside `rule.loadedIn` (default `rule.in`)
 * whose imports load one of them, through a chain of files that may load it. A chain through a file
 * that may not load it is that file's problem, reported for it.
 */
export function packageProblems(graph, rule) {
  const loadedIn = rule.loadedIn ?? rule.in;
  const where = `only ${rule.in.join(', ')}` + (rule.types ? `, and for its types only ${rule.types.join(', ')},` : '');
  const problems = [];
  for (const name of rule.names) {
    const loaders = new Set();
    for (const [from, targets] of graph) {
      for (const edge of targets.map(edgeOf)) {
        if (edge.package !== name) continue;
        if (!edge.type) loaders.add(from);
        if (within(from, rule.in) || (edge.type && within(from, rule.types ?? []))) continue;
        problems.push({ from, to: name, why: `${where} import ${name} (${rule.why})` });
      }
    }
    for (const [from, chain] of chainsTo(graph, loaders, loadedIn)) {
      if (loaders.has(from)) continue;
      problems.push({
        from,
        to: [...chain, name].join(' -> '),
        why: `loads ${name}, which only ${loadedIn.join(', ')} may load (${rule.why})`,
      });
    }
  }
  return problems;
}

/**
 * For every file with a chain of loading imports (not `import type`) into `loaders` through files in
 * `units` only: the shortest such chain after the file itself (breadth first, from the loaders back).
 */
function chainsTo(graph, loaders, units) {
  const importers = new Map();
  for (const [from, targets] of graph) {
    for (const edge of targets.map(edgeOf)) {
      if (!edge.file || edge.type) continue;
      if (!importers.has(edge.file)) importers.set(edge.file, []);
      importers.get(edge.file).push(from);
    }
  }
  const chains = new Map([...loaders].filter((file) => within(file, units)).map((file) => [file, [file]]));
  const found = new Map();
  const queue = [...chains.keys()];
  for (let i = 0; i < queue.length; i++) {
    const file = queue[i];
    for (const from of importers.get(file) ?? []) {
      if (chains.has(from) || found.has(from)) continue;
      if (within(from, units)) {
        chains.set(from, [from, ...chains.get(file)]);
        queue.push(from);
      } else found.set(from, chains.get(file));
    }
  }
  return found;
}

/** Groups of two or more files that import each other, directly or around a loop (Tarjan). */
export function cycleGroups(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  const visit = (node) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node), low.get(target)));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node), index.get(target)));
    }
    if (low.get(node) !== index.get(node)) return;
    const group = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return groups;
}
