/**
 * Plain Okapi BM25 on the development sets, the floor the resolver has to beat (as in
 * test/fixtures/benchmarks/README.md: k1 = 1.2, b = 0.75, a small stop-word list, no stemming; a
 * server's document is its name, description and all its tools' names and descriptions), for
 * every set `npm run bench:routing` measures, at server level and, for MetaTool single, tool level.
 * Prints JSON. Run: npm run build && node out/test/bench/routing-floor.js
 */
import { benchmarksDir } from '../../server/bench/dataset.js';
import { devSets } from '../../server/bench/calibrate.js';
import {
  benchPowers,
  readJsonl,
  type BenchQuery,
  type BenchServer,
  type BenchTool,
} from '../../server/bench/dataset.js';
import { Bm25fIndex } from '../../server/text/bm25f.js';

const benchmarks = benchmarksDir();
const STOP = new Set(
  (
    'a an and are as at be by for from has have i in is it its me my of on or please that the this to ' +
    'was were will with you your can could would should what how'
  ).split(' '),
);
const tokens = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t && !STOP.has(t));
const round = (x: number) => Math.round(x * 1000) / 1000;

function measure(docs: Array<{ id: string; text: string }>, queries: Array<{ text: string; relevant: Set<string> }>) {
  const index = new Bm25fIndex({ text: { weight: 1, b: 0.75 } }, 1.2);
  index.build(docs.map((d) => ({ id: d.id, fields: { text: tokens(d.text) } })));
  let hit1 = 0;
  let hit3 = 0;
  let rr = 0;
  for (const query of queries) {
    const ranked = index
      .score(tokens(query.text).map((term) => ({ term, weight: 1 })))
      .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
    const rank = ranked.findIndex((r) => query.relevant.has(r.id));
    if (rank === 0) hit1 += 1;
    if (rank >= 0 && rank < 3) hit3 += 1;
    if (rank >= 0) rr += 1 / (rank + 1);
  }
  const n = queries.length;
  return { n, hit_at_1: round(hit1 / n), hit_at_3: round(hit3 / n), mrr: round(rr / n) };
}

const results: Record<string, unknown> = {};
for (const set of devSets(benchmarks)) {
  const powers = benchPowers(readJsonl<BenchServer>(set.servers), set.tools ? readJsonl<BenchTool>(set.tools) : []);
  const queries = readJsonl<BenchQuery>(set.queries);
  const text = (q: BenchQuery) => (set.queryField === 'task_description' ? (q.task_description ?? q.query) : q.query);
  const serverDocs = powers.map((p) => ({
    id: p.name,
    text: [p.name, p.description, ...p.tools.flatMap((t) => [t.name, t.description ?? ''])].join(' '),
  }));
  results[set.name] = measure(
    serverDocs,
    queries.map((q) => ({ text: text(q), relevant: new Set(q.gt_servers ?? []) })),
  );
  if (set.name === 'metatool-single') {
    const toolDocs = powers.flatMap((p) =>
      p.tools.map((t) => ({ id: t.id ?? `${p.name}:${t.name}`, text: `${t.name} ${t.description ?? ''}` })),
    );
    results[`${set.name}@tool`] = measure(
      toolDocs,
      queries.map((q) => ({ text: text(q), relevant: new Set(q.gt_tool_ids ?? []) })),
    );
  }
}
process.stdout.write(JSON.stringify(results, null, 2) + '\n');
