// The rules of tools/lint/layers.mjs applied to an import graph (Map: file -> files it imports, paths
// from the repository root with '/'). No dependencies: test/unit/layer-rules.test.ts runs it on
// small graphs.

/** The layer unit a file belongs to: the longest declared folder or file that holds it. */
export function unitOf(file, units) {
  let best;
  for (const unit of units) {
    const holds = unit.endsWith('/') ? file.startsWith(unit) : file === unit;
    if (holds && (!best || unit.length > best.length)) best = unit;
  }
  return best;
}

/**
 * Every import the declaration forbids, as { from, to, why }, and every cycle, as a list of files.
 * `config`: { layers, sides, unchecked, knownViolations }.
 */
export function checkGraph(graph, config) {
  const { layers, sides, unchecked = [], knownViolations = [] } = config;
  const rank = new Map(layers.map((unit, index) => [unit, index]));
  const sideUnits = Object.keys(sides);
  const known = new Set(knownViolations.map(({ from, to }) => `${from} -> ${to}`));
  const used = new Set();
  const problems = [];
  const forbid = (from, to, why) => {
    const key = `${from} -> ${to}`;
    if (known.has(key)) used.add(key);
    else problems.push({ from, to, why });
  };
  for (const [from, targets] of graph) {
    if (unchecked.some((prefix) => from.startsWith(prefix))) continue;
    const side = unitOf(from, sideUnits);
    const fromUnit = unitOf(from, layers);
    if (!side && fromUnit === undefined) {
      problems.push({ from, to: '', why: 'is in no declared layer (tools/lint/layers.mjs)' });
      continue;
    }
    for (const to of targets) {
      if (side) {
        if (to.startsWith(side) || to.startsWith('protocol/') || unitOf(to, sides[side])) continue;
        forbid(from, to, `${side} imports only itself, protocol/ and the shared units listed for it`);
        continue;
      }
      const toUnit = unitOf(to, layers);
      if (toUnit === undefined) {
        forbid(from, to, 'imports outside the declared layers');
        continue;
      }
      if (toUnit !== fromUnit && rank.get(toUnit) > rank.get(fromUnit))
        forbid(from, to, `${fromUnit} is below ${toUnit}`);
    }
  }
  const stale = [...known].filter((key) => !used.has(key));
  for (const key of stale) {
    const [from, to] = key.split(' -> ');
    problems.push({
      from,
      to,
      why: 'is listed as a known violation but no longer imported: remove it from knownViolations',
    });
  }
  const checked = new Map([...graph].filter(([file]) => !unchecked.some((prefix) => file.startsWith(prefix))));
  return { problems, cycles: cycleGroups(checked) };
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
