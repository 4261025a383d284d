/**
 * The intelligence layer's benchmark: token reduction, facts kept and local summarizer latency.
 *
 *   1. real large results from the demo powers (a real gateway over stdio: directory_tree and
 *      search_files over a copy of this repository's server/ folder, read_text_file of real files,
 *      memory read_graph, everything get-env), read back in full with read_artifact;
 *   2. the corpus in test/fixtures/results/ (28 results shaped like real ones, each with the
 *      facts an agent needs), through the same summarize path the gateway runs (Intel.process).
 *
 * Per result: raw tokens, tokens the agent gets instead, reduction, facts kept in the summary
 * (literally or in its compact identifiers) and facts reachable through the stored artifact.
 * Then the local summarizer's latency on 100 KB inputs (every corpus result scaled to ~100 KB).
 * Targets: >= 80% reduction for results >= 5 KB; every fact kept or reachable; p95 < 50 ms.
 *
 * Run: npm run bench:summarize   (add --json for machine-readable output)
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { CallContext } from '../../server/calls/pipeline.js';
import { Intel } from '../../server/intel/intel.js';
import { intelSettingsSchema } from '../../server/intel/intel-settings.js';
import { expandIdentifiers } from '../../server/intel/local/expand.js';
import { rawTextOf } from '../../server/intel/result-content.js';
import { summarizeLocally } from '../../server/intel/local/local-summarizer.js';
import { countTokens } from '../../server/intel/tokens/tokenizer-core.js';
import { InlineTokenizer, WorkerTokenizer } from '../../server/intel/tokens/tokenizer.js';
import { setLogSink } from '../../server/log.js';
import { Store } from '../../server/store/store.js';
import { connectStdio, gatewayEnv } from '../helpers/gateway-process.js';
import { repoRoot, tempDir } from '../helpers/temp.js';

interface Row {
  source: 'demo' | 'corpus';
  name: string;
  kind: string;
  rawBytes: number;
  rawTokens: number;
  deliveredTokens: number;
  summarized: boolean;
  factsKept: number;
  factsReachable: number;
  facts: number;
  lost: string[];
}

interface ManifestEntry {
  file: string;
  tool: string;
  note: string;
  facts: string[];
  facts_are_paths?: boolean;
  args?: Record<string, unknown>;
}

const corpusDir = path.join(repoRoot, 'test', 'fixtures', 'results');
const json = process.argv.includes('--json');

/** A fact is kept when the summary names it (literally or through its compact identifiers). */
function factKept(summaryText: string, identifiers: Record<string, string> | undefined, fact: string): boolean {
  return summaryText.includes(fact) || expandIdentifiers(identifiers).has(fact);
}

/** A fact is reachable when the stored full result holds it (for tree paths: the path exists in the tree). */
function factReachable(raw: string, fact: string, isPath: boolean): boolean {
  if (!isPath) return raw.includes(fact);
  try {
    return treePaths(JSON.parse(raw)).has(fact);
  } catch {
    return raw.includes(fact);
  }
}

function treePaths(nodes: unknown, prefix = '', out = new Set<string>()): Set<string> {
  if (!Array.isArray(nodes)) return out;
  for (const node of nodes as Array<{ name?: string; children?: unknown }>) {
    if (!node?.name) continue;
    out.add(`${prefix}${node.name}`);
    treePaths(node.children, `${prefix}${node.name}/`, out);
  }
  return out;
}

function summaryParts(result: CallToolResult): { text: string; identifiers?: Record<string, string>; kind?: string } {
  const text = (result.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  try {
    const first = result.content?.[0];
    const parsed = first && first.type === 'text' ? (JSON.parse(first.text) as { identifiers?: Record<string, string> }) : {};
    return { text, identifiers: parsed.identifiers };
  } catch {
    return { text };
  }
}

async function corpusRows(): Promise<Row[]> {
  const manifest = JSON.parse(fs.readFileSync(path.join(corpusDir, 'manifest.json'), 'utf8')) as ManifestEntry[];
  const temp = tempDir('grimoire-bench-intel-');
  const store = await Store.open({ dataDir: temp.dir, fsync: false });
  const settings = intelSettingsSchema.parse({});
  const intel = new Intel({ store, settings: () => settings, tokenizer: new InlineTokenizer() });
  const rows: Row[] = [];
  try {
    for (const [index, entry] of manifest.entries()) {
      const raw = fs.readFileSync(path.join(corpusDir, entry.file), 'utf8');
      const [power, tool] = entry.tool.split(':') as [string, string];
      const context: CallContext = {
        power,
        tool,
        calledAs: `${power}__${tool}`,
        args: entry.args ?? { path: `/data/${entry.file}`, n: index },
        sessionId: 'bench',
        startedAt: Date.now(),
        variant: 'direct',
        annotations: { readOnlyHint: true, source: 'server' },
      };
      const result = await intel.process(context, { content: [{ type: 'text', text: raw }] }, undefined);
      const meta = result._meta?.['grimoire/summary'] as { artifactId?: string } | undefined;
      const delivered = summaryParts(result);
      const stored = meta?.artifactId ? intel.artifacts.readRaw(meta.artifactId) : undefined;
      rows.push(row('corpus', entry.file, summarizeLocally({ text: raw, args: context.args }).kind, raw, delivered, !!meta, entry.facts, stored ?? (meta ? '' : raw), !!entry.facts_are_paths));
    }
  } finally {
    await intel.close();
    store.close();
    temp.cleanup();
  }
  return rows;
}

function row(source: Row['source'], name: string, kind: string, raw: string, delivered: ReturnType<typeof summaryParts>, summarized: boolean, facts: string[], artifact: string, paths: boolean): Row {
  const lost: string[] = [];
  let kept = 0;
  let reachable = 0;
  for (const fact of facts) {
    const inSummary = summarized ? factKept(delivered.text, delivered.identifiers, fact) : delivered.text.includes(fact);
    const inArtifact = factReachable(artifact, fact, paths);
    if (inSummary) kept++;
    if (inSummary || inArtifact) reachable++;
    else lost.push(fact);
  }
  return {
    source,
    name,
    kind,
    rawBytes: Buffer.byteLength(raw),
    rawTokens: countTokens(raw),
    deliveredTokens: countTokens(delivered.text),
    summarized,
    factsKept: kept,
    factsReachable: reachable,
    facts: facts.length,
    lost,
  };
}

/** Real results from the demo powers, through a real gateway; the raw text is read back with read_artifact. */
async function demoRows(): Promise<Row[]> {
  const home = tempDir('grimoire-bench-demo-');
  const data = path.join(home.dir, 'data');
  const project = path.join(data, 'demo-project');
  fs.cpSync(path.join(repoRoot, 'server', 'demo', 'project'), project, { recursive: true });
  fs.cpSync(path.join(repoRoot, 'server'), path.join(project, 'server'), { recursive: true, filter: (src) => !src.includes(`${path.sep}demo${path.sep}`) });
  fs.copyFileSync(path.join(repoRoot, 'package-lock.json'), path.join(project, 'package-lock.json'));
  fs.copyFileSync(path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'sdk', 'README.md'), path.join(project, 'SDK-README.md'));
  const session = await connectStdio(['--demo', '--no-imports'], gatewayEnv({ home: home.dir, data }));
  const rows: Row[] = [];
  try {
    const call = (name: string, args: Record<string, unknown>) => session.client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
    const readAll = async (id: string): Promise<string> => {
      let offset: number | null = 0;
      let text = '';
      while (offset !== null) {
        const page = await call('read_artifact', { id, offset, limit: 50_000 });
        text += (page.content as Array<{ text: string }>)[1]!.text;
        offset = (page.structuredContent as { next_offset: number | null }).next_offset;
      }
      return text;
    };
    const measure = async (name: string, tool: string, args: Record<string, unknown>, facts: string[], paths = false) => {
      const result = await call(tool, args);
      const meta = result._meta?.['grimoire/summary'] as { artifactId?: string } | undefined;
      const delivered = summaryParts(result);
      // A result passed through is what the agent reads: its text and resource links.
      const raw = meta?.artifactId ? await readAll(meta.artifactId) : rawTextOf(result);
      if (!meta) delivered.text = raw;
      rows.push(row('demo', name, meta ? summarizeLocally({ text: raw, args }).kind : 'small', raw, delivered, !!meta, facts, raw, paths));
    };
    await call('activate_power', { name: 'filesystem' });
    await measure('directory_tree (repo server/)', 'filesystem__directory_tree', { path: path.join(project, 'server') }, ['gateway/gateway.ts', 'intel/local/json-summary.ts', 'store/migrations.ts', 'resolve/semantic/embedder.ts'], true);
    await measure('search_files **/*.ts', 'filesystem__search_files', { path: path.join(project, 'server'), pattern: '**/*.ts' }, [path.join(project, 'server', 'gateway', 'gateway.ts'), path.join(project, 'server', 'intel', 'intel.ts')]);
    await measure('list_directory_with_sizes', 'filesystem__list_directory_with_sizes', { path: path.join(project, 'server', 'gateway') }, ['gateway.ts', 'exposure.ts', 'http-server.ts']);
    await measure('read_text_file gateway.ts', 'filesystem__read_text_file', { path: path.join(project, 'server', 'gateway', 'gateway.ts') }, ['Gateway', 'GatewayOptions', 'CallerContext', 'unknownToolMessage']);
    await measure('read_text_file package-lock.json', 'filesystem__read_text_file', { path: path.join(project, 'package-lock.json') }, ['node_modules/js-tiktoken', 'node_modules/sql.js', 'node_modules/zod']);
    await measure('read_text_file SDK README.md', 'filesystem__read_text_file', { path: path.join(project, 'SDK-README.md') }, ['https://modelcontextprotocol.io']);
    await call('activate_power', { name: 'memory' });
    const entities = Array.from({ length: 150 }, (_, i) => ({ name: `Service ${i} Owner`, entityType: i % 3 ? 'person' : 'service', observations: [`Owns the deployment pipeline number ${i}`, `Prefers async reviews for change ${i * 7}`] }));
    await call('memory__search_nodes', { query: 'Service' }); // the spell's prerequisite for create_entities
    await call('memory__create_entities', { entities });
    await measure('memory read_graph (150 entities)', 'memory__read_graph', {}, ['Service 0 Owner', 'Service 77 Owner', 'Service 149 Owner']);
    await call('activate_power', { name: 'everything' });
    await measure('everything get-env', 'everything__get-env', {}, ['PATH', 'HOME']);
    await measure('everything get-resource-links', 'everything__get-resource-links', { count: 10 }, ['demo://resource/dynamic/text/4', 'demo://resource/dynamic/blob/9']);
  } finally {
    await session.client.close();
    home.cleanup();
  }
  return rows;
}

/** Every corpus result grown to about 100 KB (more items for JSON, more lines for text). */
function scaledInputs(target = 100_000): Array<{ name: string; text: string }> {
  const manifest = JSON.parse(fs.readFileSync(path.join(corpusDir, 'manifest.json'), 'utf8')) as ManifestEntry[];
  return manifest.map((entry) => {
    const raw = fs.readFileSync(path.join(corpusDir, entry.file), 'utf8');
    return { name: entry.file, text: scale(raw, target) };
  });
}

function scale(raw: string, target: number): string {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    const lines = raw.split('\n');
    const out: string[] = [];
    for (let round = 0; out.join('\n').length < target; round++) out.push(...lines.map((l) => (round ? l.replace(/\d+/, (d) => String(Number(d) + round)) : l)));
    return out.join('\n').slice(0, target);
  }
  // Grow the biggest array (or map) until the JSON reaches the target.
  const grow = (node: unknown): unknown => {
    if (Array.isArray(node)) {
      const out = [...node];
      for (let i = 0; JSON.stringify(out).length < target * 0.9 && node.length > 0; i++) out.push(node[i % node.length]);
      return out;
    }
    if (node && typeof node === 'object') {
      const entries = Object.entries(node as Record<string, unknown>);
      const [bigKey] = entries.reduce<[string, number]>((best, [k, v]) => {
        const size = JSON.stringify(v)?.length ?? 0;
        return size > best[1] ? [k, size] : best;
      }, ['', 0]);
      const big = (node as Record<string, unknown>)[bigKey];
      if (Array.isArray(big) || (big && typeof big === 'object' && Object.keys(big).length > 20)) return { ...(node as object), [bigKey]: grow(big) };
      const out: Record<string, unknown> = { ...(node as object) };
      for (let i = 0; JSON.stringify(out).length < target * 0.9; i++) for (const [k, v] of entries) out[`${k}_${i}`] = v;
      return out;
    }
    return node;
  };
  return JSON.stringify(grow(value), null, 2);
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function latency(): Promise<{ inputs: number; runs: number; kb: number; p50: number; p95: number; max: number; worst: string; pipelineP95: number }> {
  const inputs = scaledInputs();
  const times: number[] = [];
  let worst = { name: '', ms: 0 };
  const RUNS = 20;
  for (const input of inputs) {
    for (let i = 0; i < 3; i++) summarizeLocally({ text: input.text }); // warm-up
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      summarizeLocally({ text: input.text });
      const ms = performance.now() - started;
      times.push(ms);
      if (ms > worst.ms) worst = { name: input.name, ms };
    }
  }
  // The whole summarize path the gateway runs (summary, artifact file and row; token counting is off the call path).
  const temp = tempDir('grimoire-bench-latency-');
  const store = await Store.open({ dataDir: temp.dir, fsync: true });
  const settings = intelSettingsSchema.parse({});
  // As in the gateway: token accounting in the worker thread, off the call path.
  const intel = new Intel({ store, settings: () => settings, tokenizer: new WorkerTokenizer() });
  const pipeline: number[] = [];
  try {
    for (const [n, input] of inputs.entries()) {
      for (let i = 0; i < 5; i++) {
        const context: CallContext = { power: 'bench', tool: 'read', calledAs: 'bench__read', args: { n, i }, sessionId: 'bench', startedAt: Date.now(), variant: 'direct', annotations: { readOnlyHint: true, source: 'server' } };
        const started = performance.now();
        await intel.process(context, { content: [{ type: 'text', text: input.text }] }, undefined);
        pipeline.push(performance.now() - started);
      }
    }
    await intel.flush();
  } finally {
    await intel.close();
    store.close();
    temp.cleanup();
  }
  const kb = Math.round(inputs.reduce((sum, i) => sum + i.text.length, 0) / inputs.length / 1024);
  return { inputs: inputs.length, runs: times.length, kb, p50: round(percentile(times, 50)), p95: round(percentile(times, 95)), max: round(Math.max(...times)), worst: worst.name, pipelineP95: round(percentile(pipeline, 95)) };
}

const round = (x: number) => Math.round(x * 10) / 10;
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function printTable(rows: Row[]): void {
  const header = ['source', 'result', 'kind', 'raw KB', 'raw tok', 'summary tok', 'reduction', 'facts in summary', 'facts kept/reachable'];
  const lines = rows.map((r) => [
    r.source,
    r.name,
    r.kind,
    (r.rawBytes / 1024).toFixed(1),
    String(r.rawTokens),
    String(r.deliveredTokens),
    r.summarized ? pct(1 - r.deliveredTokens / r.rawTokens) : 'raw (< 2 KB)',
    `${r.factsKept}/${r.facts}`,
    `${r.factsReachable}/${r.facts}${r.lost.length ? ` LOST: ${r.lost.join(', ')}` : ''}`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) => cells.map((c, i) => (i >= 3 && i <= 6 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ');
  process.stdout.write(`${format(header)}\n${widths.map((w) => '-'.repeat(w)).join('-|-')}\n${lines.map(format).join('\n')}\n`);
}

async function main(): Promise<void> {
  setLogSink(() => undefined);
  const demo = await demoRows();
  const corpus = await corpusRows();
  const rows = [...demo, ...corpus];
  const timing = await latency();
  const large = rows.filter((r) => r.rawBytes >= 5 * 1024);
  const reductions = large.map((r) => (r.summarized ? 1 - r.deliveredTokens / r.rawTokens : 0));
  const under = large.filter((r, i) => reductions[i]! < 0.8);
  const facts = rows.reduce((sum, r) => sum + r.facts, 0);
  const kept = rows.reduce((sum, r) => sum + r.factsKept, 0);
  const reachable = rows.reduce((sum, r) => sum + r.factsReachable, 0);
  const totals = { raw: large.reduce((s, r) => s + r.rawTokens, 0), delivered: large.reduce((s, r) => s + r.deliveredTokens, 0) };
  const summary = {
    results: rows.length,
    demo_results: demo.length,
    corpus_results: corpus.length,
    results_over_5kb: large.length,
    reduction_over_5kb: { min: round(Math.min(...reductions) * 100), median: round(percentile(reductions, 50) * 100), overall: round((1 - totals.delivered / totals.raw) * 100), below_80: under.map((r) => r.name) },
    facts: { total: facts, in_summary: kept, kept_or_reachable: reachable },
    local_summarizer_100kb: timing,
    targets: {
      reduction_80_for_5kb: under.length === 0,
      every_fact_kept_or_reachable: reachable === facts,
      p95_under_50ms: timing.p95 < 50,
    },
  };
  if (json) {
    process.stdout.write(JSON.stringify({ rows, summary }, null, 2) + '\n');
    return;
  }
  printTable(rows);
  process.stdout.write(
    [
      '',
      `results: ${rows.length} (${demo.length} from the demo powers, ${corpus.length} from the corpus); ${large.length} are >= 5 KB`,
      `reduction for results >= 5 KB (tokens, o200k_base): min ${summary.reduction_over_5kb.min}%, median ${summary.reduction_over_5kb.median}%, overall ${summary.reduction_over_5kb.overall}%${under.length ? `; below 80%: ${under.map((r) => r.name).join(', ')}` : ''}`,
      `facts: ${kept}/${facts} named in the summary itself, ${reachable}/${facts} kept or reachable through the artifact`,
      `local summarizer on ${timing.inputs} inputs of ~${timing.kb} KB (${timing.runs} runs): p50 ${timing.p50} ms, p95 ${timing.p95} ms, max ${timing.max} ms (${timing.worst}); whole summarize path (summary + artifact file + store row, fsync) p95 ${timing.pipelineP95} ms`,
      `targets: >= 80% reduction at >= 5 KB ${summary.targets.reduction_80_for_5kb ? 'MET' : 'MISSED'}; every fact kept or reachable ${summary.targets.every_fact_kept_or_reachable ? 'MET' : 'MISSED'}; p95 < 50 ms ${summary.targets.p95_under_50ms ? 'MET' : 'MISSED'}`,
      '',
    ].join('\n'),
  );
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
