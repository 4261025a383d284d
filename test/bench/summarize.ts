/**
 * The intelligence layer's benchmark, on a corpus of real results captured from real servers
 * (test/fixtures/results/captured/, made by `npm run bench:capture-results`: filesystem
 * trees, listings, search hits, a CSV and a system log; a memory graph; everything's outputs; a
 * JSON API response and a log of a real gateway). Per result:
 *
 *   - as deployed: what the policy delivers (whole when small or asked to read within the read
 *     budget, summarized otherwise) and its tokens;
 *   - the summary (every result of the corpus summarized, the read budget set aside): tokens,
 *     reduction, and the share of the facts a reader needs that are IN THE SUMMARY ITSELF (named
 *     literally or in its compact identifiers); "reachable" (the stored artifact holds them) is a
 *     separate figure;
 *   - query-targeted context: for each question, whether its answer is inside what
 *     get_artifact_context({ids, maxTokens: 1000, query}) returns.
 *
 * Then the local summarizer's latency on 100 KB inputs (every corpus result scaled to ~100 KB).
 *
 * Run: npm run bench:summarize   (add --json for machine-readable output)
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CallToolResult } from '../../server/util/mcp-types.js';
import type { CallContext } from '../../server/calls/pipeline.js';
import { Intel } from '../../server/intel/intel.js';
import { intelSettingsSchema, type IntelSettings } from '../../server/config/intel-settings.js';
import { expandIdentifiers } from '../../server/intel/local/expand.js';
import { summarizeLocally } from '../../server/intel/local/local-summarizer.js';
import { countTokens } from '../../server/intel/tokens/tokenizer-core.js';
import { handleIntelTool } from '../../server/intel/tools/intel-tool-handlers.js';
import { InlineTokenizer, WorkerTokenizer } from '../../server/intel/tokens/tokenizer.js';
import { setLogSink } from '../../server/log.js';
import { Store } from '../../server/store/store.js';
import type { CapturedEntry } from './capture-results.js';
import { repoRoot, tempDir } from '../helpers/temp.js';

interface Row {
  name: string;
  tool: string;
  kind: string;
  rawBytes: number;
  rawTokens: number;
  /** As deployed: whole or summary, and its tokens. */
  deployed: 'whole' | 'summary';
  deployedTokens: number;
  /** The summary, every result summarized (0 when the result is below the summary threshold). */
  summarized: boolean;
  summaryTokens: number;
  factsInSummary: number;
  factsReachable: number;
  facts: number;
  missing: string[];
  questions: number;
  answered: number;
  unanswered: string[];
}

const corpusDir = path.join(repoRoot, 'test', 'fixtures', 'results', 'captured');
const json = process.argv.includes('--json');
const CONTEXT_BUDGET = 1_000;

/** A fact is in the summary when the summary names it (literally or through its compact identifiers). */
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

const textOf = (result: CallToolResult) =>
  (result.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');

function summaryParts(result: CallToolResult): { text: string; identifiers?: Record<string, string> } {
  const text = textOf(result);
  try {
    const first = result.content?.[0];
    const parsed =
      first && first.type === 'text' ? (JSON.parse(first.text) as { identifiers?: Record<string, string> }) : {};
    return { text, identifiers: parsed.identifiers };
  } catch {
    return { text };
  }
}

export function manifest(): CapturedEntry[] {
  return JSON.parse(fs.readFileSync(path.join(corpusDir, 'manifest.json'), 'utf8')) as CapturedEntry[];
}

async function intelFor(settings: IntelSettings): Promise<{ intel: Intel; close: () => Promise<void> }> {
  const temp = tempDir('grimoire-bench-intel-');
  const store = await Store.open({ dataDir: temp.dir, fsync: false });
  const intel = new Intel({ store, settings: () => settings, tokenizer: new InlineTokenizer() });
  return {
    intel,
    close: async () => {
      await intel.close();
      store.close();
      temp.cleanup();
    },
  };
}

async function corpusRows(): Promise<Row[]> {
  const deployedSettings = intelSettingsSchema.parse({});
  // Every result summarized: the read budget at its minimum, below every captured file.
  const summarySettings = intelSettingsSchema.parse({ readWholeTokens: 256 });
  const deployed = await intelFor(deployedSettings);
  const summaries = await intelFor(summarySettings);
  const rows: Row[] = [];
  try {
    for (const [index, entry] of manifest().entries()) {
      const raw = fs.readFileSync(path.join(corpusDir, entry.file), 'utf8');
      const [power, tool] = entry.tool.split(':') as [string, string];
      const context = (n: string): CallContext => ({
        power,
        tool,
        calledAs: `${power}__${tool}`,
        args: { ...entry.args, bench: `${n}${index}` },
        sessionId: 'bench',
        startedAt: Date.now(),
        variant: 'direct',
        annotations: { readOnlyHint: true, source: 'server' },
      });
      const original: CallToolResult = { content: [{ type: 'text', text: raw }] };
      const asDeployed = await deployed.intel.process(context('d'), original, undefined);
      const summarizedResult = await summaries.intel.process(context('s'), original, undefined);
      const meta = summarizedResult._meta?.['grimoire/summary'] as { artifactId?: string } | undefined;
      const summary = summaryParts(summarizedResult);
      const stored = meta?.artifactId ? ((await summaries.intel.artifacts.readRaw(meta.artifactId, '')) ?? '') : raw;
      const missing: string[] = [];
      let inSummary = 0;
      let reachable = 0;
      for (const fact of entry.facts) {
        const kept = meta ? factKept(summary.text, summary.identifiers, fact) : raw.includes(fact);
        if (kept) inSummary++;
        else missing.push(fact);
        if (kept || factReachable(stored, fact, !!entry.facts_are_paths)) reachable++;
      }
      const unanswered: string[] = [];
      let answered = 0;
      for (const question of entry.questions) {
        let context = raw;
        if (meta?.artifactId) {
          const answer = await handleIntelTool(
            summaries.intel,
            'get_artifact_context',
            { ids: [meta.artifactId], maxTokens: CONTEXT_BUDGET, query: question.query },
            '',
          );
          context = textOf(answer!);
        }
        if (context.includes(question.answer)) answered++;
        else unanswered.push(question.query);
      }
      rows.push({
        name: entry.file,
        tool: entry.tool,
        kind: summarizeLocally({ text: raw, args: entry.args }).kind,
        rawBytes: Buffer.byteLength(raw),
        rawTokens: countTokens(raw),
        deployed: asDeployed._meta?.['grimoire/summary'] ? 'summary' : 'whole',
        deployedTokens: countTokens(textOf(asDeployed)),
        summarized: !!meta,
        summaryTokens: countTokens(summary.text),
        factsInSummary: inSummary,
        factsReachable: reachable,
        facts: entry.facts.length,
        missing,
        questions: entry.questions.length,
        answered,
        unanswered,
      });
    }
  } finally {
    await deployed.close();
    await summaries.close();
  }
  return rows;
}

/** Every corpus result grown to about 100 KB (more items for JSON, more lines for text). */
function scaledInputs(target = 100_000): Array<{ name: string; text: string }> {
  return manifest()
    .filter((entry) => fs.statSync(path.join(corpusDir, entry.file)).size >= 2_048)
    .map((entry) => {
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
    for (let round = 0; out.join('\n').length < target; round++)
      out.push(...lines.map((l) => (round ? l.replace(/\d+/, (d) => String(Number(d) + round)) : l)));
    return out.join('\n').slice(0, target);
  }
  // Grow the biggest array (or map) until the JSON reaches the target.
  const grow = (node: unknown): unknown => {
    if (Array.isArray(node)) {
      const out = [...node];
      for (let i = 0; JSON.stringify(out).length < target * 0.9 && node.length > 0; i++)
        out.push(node[i % node.length]);
      return out;
    }
    if (node && typeof node === 'object') {
      const entries = Object.entries(node as Record<string, unknown>);
      const [bigKey] = entries.reduce<[string, number]>(
        (best, [k, v]) => {
          const size = JSON.stringify(v)?.length ?? 0;
          return size > best[1] ? [k, size] : best;
        },
        ['', 0],
      );
      const big = (node as Record<string, unknown>)[bigKey];
      if (Array.isArray(big) || (big && typeof big === 'object' && Object.keys(big).length > 20))
        return { ...(node as object), [bigKey]: grow(big) };
      const out: Record<string, unknown> = { ...(node as object) };
      for (let i = 0; JSON.stringify(out).length < target * 0.9; i++)
        for (const [k, v] of entries) out[`${k}_${i}`] = v;
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

async function latency(): Promise<{
  inputs: number;
  runs: number;
  kb: number;
  p50: number;
  p95: number;
  max: number;
  worst: string;
  pipelineP95: number;
}> {
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
        const context: CallContext = {
          power: 'bench',
          tool: 'list',
          calledAs: 'bench__list',
          args: { n, i },
          sessionId: 'bench',
          startedAt: Date.now(),
          variant: 'direct',
          annotations: { readOnlyHint: true, source: 'server' },
        };
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
  return {
    inputs: inputs.length,
    runs: times.length,
    kb,
    p50: round(percentile(times, 50)),
    p95: round(percentile(times, 95)),
    max: round(Math.max(...times)),
    worst: worst.name,
    pipelineP95: round(percentile(pipeline, 95)),
  };
}

const round = (x: number) => Math.round(x * 10) / 10;
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function printTable(rows: Row[]): void {
  const header = [
    'result',
    'kind',
    'raw KB',
    'raw tok',
    'as deployed',
    'summary tok',
    'reduction',
    'facts in summary',
    'reachable',
    `answered in ${CONTEXT_BUDGET} tok`,
  ];
  const lines = rows.map((r) => [
    r.name,
    r.kind,
    (r.rawBytes / 1024).toFixed(1),
    String(r.rawTokens),
    `${r.deployed} ${r.deployedTokens}`,
    r.summarized ? String(r.summaryTokens) : '-',
    r.summarized ? pct(1 - r.summaryTokens / r.rawTokens) : 'small',
    `${r.factsInSummary}/${r.facts}` +
      `${r.missing.length ? ` (not: ${r.missing.slice(0, 3).join(', ')}${r.missing.length > 3 ? ` +${r.missing.length - 3}` : ''})` : ''}`,
    `${r.factsReachable}/${r.facts}`,
    r.questions ? `${r.answered}/${r.questions}` : '-',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) =>
    cells.map((c, i) => (i >= 2 && i <= 6 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ');
  process.stdout.write(
    `${format(header)}\n${widths.map((w) => '-'.repeat(w)).join('-|-')}\n${lines.map(format).join('\n')}\n`,
  );
}

async function main(): Promise<void> {
  setLogSink(() => undefined);
  const rows = await corpusRows();
  const timing = await latency();
  const summarized = rows.filter((r) => r.summarized);
  const large = summarized.filter((r) => r.rawBytes >= 5 * 1024);
  const reductions = large.map((r) => 1 - r.summaryTokens / r.rawTokens);
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const facts = sum(summarized.map((r) => r.facts));
  const inSummary = sum(summarized.map((r) => r.factsInSummary));
  const reachable = sum(summarized.map((r) => r.factsReachable));
  const questions = sum(summarized.map((r) => r.questions));
  const answered = sum(summarized.map((r) => r.answered));
  const result = {
    results: rows.length,
    summarized: summarized.length,
    whole_as_deployed: rows.filter((r) => r.deployed === 'whole').map((r) => r.name),
    reduction_over_5kb: large.length
      ? {
          results: large.length,
          min: round(Math.min(...reductions) * 100),
          median: round(percentile(reductions, 50) * 100),
          overall: round((1 - sum(large.map((r) => r.summaryTokens)) / sum(large.map((r) => r.rawTokens))) * 100),
        }
      : undefined,
    facts: {
      total: facts,
      in_summary: inSummary,
      in_summary_share: round((inSummary / Math.max(1, facts)) * 100),
      /** The mean of each result's share: a result with many facts (a log naming 52 packages) weighs as one. */
      in_summary_mean_per_result: round(
        (sum(summarized.map((r) => r.factsInSummary / Math.max(1, r.facts))) / Math.max(1, summarized.length)) * 100,
      ),
      reachable,
      reachable_share: round((reachable / Math.max(1, facts)) * 100),
    },
    query_context: {
      budget_tokens: CONTEXT_BUDGET,
      questions,
      answered,
      share: round((answered / Math.max(1, questions)) * 100),
    },
    local_summarizer_100kb: timing,
  };
  if (json) {
    process.stdout.write(JSON.stringify({ rows, summary: result }, null, 2) + '\n');
    return;
  }
  printTable(rows);
  const r = result.reduction_over_5kb;
  process.stdout.write(
    [
      '',
      `results: ${rows.length} captured from real servers; ${summarized.length} summarized when every ` +
        `result is (the others are below the ${intelSettingsSchema.parse({}).summaryThresholdTokens}-token ` +
        `threshold); as deployed, ${result.whole_as_deployed.length} come back whole`,
      r
        ? `summary size for the ${r.results} results >= 5 KB (o200k_base): ` +
          `reduction min ${r.min}%, median ${r.median}%, overall ${r.overall}%`
        : '',
      `facts a reader needs: ${inSummary}/${facts} (${result.facts.in_summary_share}%) in the summary ` +
        `itself (mean per result ${result.facts.in_summary_mean_per_result}%); ` +
        `${reachable}/${facts} (${result.facts.reachable_share}%) reachable through the stored result`,
      `questions answered inside get_artifact_context({query}) within ${CONTEXT_BUDGET} tokens: ` +
        `${answered}/${questions} (${result.query_context.share}%)`,
      `local summarizer on ${timing.inputs} inputs of ~${timing.kb} KB (${timing.runs} runs): ` +
        `p50 ${timing.p50} ms, p95 ${timing.p95} ms, max ${timing.max} ms (${timing.worst}); ` +
        `whole summarize path (summary + artifact file + store row, fsync) p95 ${timing.pipelineP95} ms`,
      '',
    ].join('\n'),
  );
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
