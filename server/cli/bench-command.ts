import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { benchmarksDir } from '../bench/dataset.js';
import { devSets } from '../bench/calibrate.js';
import {
  benchPowers,
  importedServers,
  readJsonl,
  type BenchQuery,
  type BenchServer,
  type BenchServerWords,
  type BenchTool,
} from '../bench/dataset.js';
import { benchCatalog } from '../bench/answer-bench.js';
import { runLearnSplit } from '../bench/learn-split.js';
import { runBench } from '../bench/run-bench.js';
import { defaultSettings, withOverrides } from '../config/settings.js';
import { createResolver } from '../resolve/create-resolver.js';
import { Store } from '../store/store.js';
import { UsageError, type CliArgs } from './args.js';

interface BenchFiles {
  servers: string;
  /** Describe the servers as imports: from this server-words.jsonl and their tools, not their own lines. */
  serverWords?: string;
  tools?: string;
  queries: string;
  queryField: CliArgs['queryField'];
}

/**
 * `grimoire bench`: the resolver over a routing data set, no server started; prints the metrics as
 * JSON. With --servers and --queries, those files; without, every development set of the
 * benchmarks folder (--benchmarks DIR, else $GRIMOIRE_BENCHMARKS, else test/fixtures/benchmarks/),
 * each with its own query field, keyed by set name, and our requests over the 14 real servers, as
 * spells and as an import would describe them (at --level tool, the sets with tool ground truth).
 */
export async function bench(args: CliArgs): Promise<number> {
  if (Boolean(args.servers) !== Boolean(args.queries))
    throw new UsageError(
      'bench needs both --servers FILE and --queries FILE, or neither (the development sets of test/fixtures/benchmarks/).',
    );
  if (args.servers && args.queries) {
    process.stdout.write(
      JSON.stringify(
        await benchFiles(
          { servers: args.servers, tools: args.tools, queries: args.queries, queryField: args.queryField },
          args,
        ),
        null,
        args.json ? 0 : 2,
      ) + '\n',
    );
    return 0;
  }
  const dir = benchmarksDir(args.benchmarks);
  if (!fs.existsSync(dir))
    throw new UsageError(
      `bench: no development sets at ${dir} (--benchmarks DIR or GRIMOIRE_BENCHMARKS names another folder).`,
    );
  const results: Record<string, unknown> = {};
  // Our own requests over the 14 real servers are measured too; calibration fits the public sets only.
  const realServers = {
    name: 'real-servers',
    servers: path.join(dir, 'real-servers', 'servers.jsonl'),
    tools: path.join(dir, 'real-servers', 'tools.jsonl'),
    queries: path.join(dir, 'real-servers', 'queries.jsonl'),
    queryField: 'query' as const,
  };
  // The same servers as an imported config would give them: described only by what they say of themselves and their tools.
  const realImported = {
    ...realServers,
    name: 'real-servers-imported',
    serverWords: path.join(dir, 'real-servers', 'server-words.jsonl'),
  };
  const real = fs.existsSync(realServers.queries)
    ? [realServers, ...(fs.existsSync(realImported.serverWords) ? [realImported] : [])]
    : [];
  const sets: Array<BenchFiles & { name: string }> = [...devSets(dir), ...real];
  for (const set of sets) {
    if (args.level === 'tool' && !readJsonl<BenchQuery>(set.queries).some((query) => query.gt_tool_ids?.length))
      continue;
    results[set.name] = await benchFiles(set, args);
  }
  process.stdout.write(JSON.stringify(results, null, args.json ? 0 : 2) + '\n');
  return 0;
}

async function benchFiles(files: BenchFiles, args: CliArgs): Promise<unknown> {
  const tools = files.tools ? readJsonl<BenchTool>(files.tools) : [];
  const listed = readJsonl<BenchServer>(files.servers);
  const servers = files.serverWords
    ? importedServers(listed, tools, readJsonl<BenchServerWords>(files.serverWords))
    : listed;
  const powers = benchPowers(servers, tools);
  const queries = readJsonl<BenchQuery>(files.queries);
  const settings = withOverrides(defaultSettings(), { resolve: { semantic: { enabled: args.semantic === 'on' } } });
  // Embeddings are cached in a throwaway store: a bench never touches the user's data.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grimoire-bench-'));
  const store = await Store.open({ dataDir, fsync: false });
  try {
    const { resolver, embedder } = createResolver(settings.resolve, store, process.env.GRIMOIRE_DATA ?? dataDir);
    if (args.semantic === 'on' && !(await embedder.ready())) {
      process.stderr.write(
        `grimoire bench: ${embedder.status().detail ?? 'the model did not load'}; measuring lexical-only.\n`,
      );
    }
    if (args.learnSplit !== undefined) {
      const n = args.learnSplit;
      const fresh = () => createResolver(settings.resolve, store, process.env.GRIMOIRE_DATA ?? dataDir).resolver;
      const result = await runLearnSplit({
        resolver: fresh,
        powers,
        queries,
        level: args.level,
        queryField: files.queryField,
        thresholds: settings.resolve,
        n,
        store,
      });
      process.stderr.write(
        `grimoire bench: ${result.history} queries replayed as history (${n} per power), ` +
          `${result.learned} learned; ${result.before.n} measured\n`,
      );
      return { before: result.before, after: result.after };
    }
    resolver.index(powers);
    await resolver.ready();
    const { summary } = await runBench({
      resolver,
      powers,
      queries,
      level: args.level,
      queryField: files.queryField,
      thresholds: settings.resolve,
      indexed: true,
      catalog: benchCatalog(servers, tools),
    });
    return { ...summary, resolver: resolver.status() };
  } finally {
    store.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
