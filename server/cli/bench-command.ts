import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { benchPowers, readJsonl, type BenchQuery, type BenchServer, type BenchTool } from '../bench/dataset.js';
import { benchCatalog } from '../bench/answer-bench.js';
import { runLearnSplit } from '../bench/learn-split.js';
import { runBench } from '../bench/run-bench.js';
import { defaultSettings, withOverrides } from '../config/settings.js';
import { createResolver } from '../resolve/create-resolver.js';
import { Store } from '../store/store.js';
import { UsageError, type CliArgs } from './args.js';

/** `grimoire bench`: the resolver over a routing data set, no server started; prints the metrics as JSON. */
export async function bench(args: CliArgs): Promise<number> {
  if (!args.servers || !args.queries) throw new UsageError('bench needs --servers FILE and --queries FILE (see ../shared/benchmarks).');
  const servers = readJsonl<BenchServer>(args.servers);
  const tools = args.tools ? readJsonl<BenchTool>(args.tools) : [];
  const powers = benchPowers(servers, tools);
  const queries = readJsonl<BenchQuery>(args.queries);
  const settings = withOverrides(defaultSettings(), { resolve: { semantic: { enabled: args.semantic === 'on' } } });
  // Embeddings are cached in a throwaway store: a bench never touches the user's data.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grimoire-bench-'));
  const store = await Store.open({ dataDir, fsync: false });
  try {
    const { resolver, embedder } = createResolver(settings.resolve, store, process.env.GRIMOIRE_DATA ?? dataDir);
    if (args.semantic === 'on' && !(await embedder.ready())) {
      process.stderr.write(`grimoire bench: ${embedder.status().detail ?? 'the model did not load'}; measuring lexical-only.\n`);
    }
    if (args.learnSplit !== undefined) {
      const n = args.learnSplit;
      const fresh = () => createResolver(settings.resolve, store, process.env.GRIMOIRE_DATA ?? dataDir).resolver;
      const result = await runLearnSplit({ resolver: fresh, powers, queries, level: args.level, queryField: args.queryField, thresholds: settings.resolve, n, store });
      process.stderr.write(`grimoire bench: ${result.history} queries replayed as history (${n} per power), ${result.learned} learned; ${result.before.n} measured\n`);
      process.stdout.write(JSON.stringify({ before: result.before, after: result.after }, null, args.json ? 0 : 2) + '\n');
      return 0;
    }
    resolver.index(powers);
    await resolver.ready();
    const { summary } = await runBench({ resolver, powers, queries, level: args.level, queryField: args.queryField, thresholds: settings.resolve, indexed: true, catalog: benchCatalog(servers, tools) });
    process.stdout.write(JSON.stringify({ ...summary, resolver: resolver.status() }, null, args.json ? 0 : 2) + '\n');
    return 0;
  } finally {
    store.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
