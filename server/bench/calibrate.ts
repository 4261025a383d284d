import * as path from 'node:path';
import {
  fitCalibration,
  rankingShape,
  topProbability,
  type CalibrationModel,
  type TrainingExample,
} from '../resolve/calibration.js';
import { LexicalResolver } from '../resolve/lexical-resolver.js';
import { mayAutoActivate } from '../resolve/tiers.js';
import { benchPowers, readJsonl, type BenchQuery, type BenchServer, type BenchTool } from './dataset.js';

/** The development sets (test/fixtures/benchmarks/, see benchmarksDir), as the resolver is calibrated and measured on them. */
export interface DevSet {
  name: string;
  servers: string;
  tools?: string;
  queries: string;
  queryField: 'query' | 'task_description';
}

export function devSets(dir: string): DevSet[] {
  const metatool = (file: string) => ({
    servers: path.join(dir, 'metatool', 'servers.jsonl'),
    tools: path.join(dir, 'metatool', 'tools.jsonl'),
    queries: path.join(dir, 'metatool', file),
  });
  const mcpBench = {
    servers: path.join(dir, 'mcp-bench', 'servers.jsonl'),
    queries: path.join(dir, 'mcp-bench', 'queries.jsonl'),
  };
  const mcpBenchTools = { ...mcpBench, tools: path.join(dir, 'mcp-bench', 'tools.jsonl') };
  return [
    { name: 'metatool-single', ...metatool('queries_single.jsonl'), queryField: 'query' },
    { name: 'metatool-multi', ...metatool('queries_multi.jsonl'), queryField: 'query' },
    { name: 'mcp-bench-query', ...mcpBench, queryField: 'query' },
    { name: 'mcp-bench-task', ...mcpBench, queryField: 'task_description' },
    { name: 'mcp-bench-query-tools', ...mcpBenchTools, queryField: 'query' },
    { name: 'mcp-bench-task-tools', ...mcpBenchTools, queryField: 'task_description' },
  ];
}

/** Each query also trains "not this one": its ranking with the right powers removed, at this weight. */
const NEGATIVE_WEIGHT = 0.5;

/** Training examples from one set: the shape of every query's ranking, and of its negative twin. */
export function examplesFor(set: DevSet): TrainingExample[] {
  const resolver = new LexicalResolver();
  resolver.index(benchPowers(readJsonl<BenchServer>(set.servers), set.tools ? readJsonl<BenchTool>(set.tools) : []));
  const queries = readJsonl<BenchQuery>(set.queries);
  const weight = 1 / queries.length;
  return queries.flatMap((query) => {
    const text = set.queryField === 'task_description' ? (query.task_description ?? query.query) : query.query;
    const relevant = new Set(query.gt_servers ?? []);
    const ranked = resolver.rankPowers(text);
    const others = ranked.filter((c) => !relevant.has(c.name));
    const examples: TrainingExample[] = [];
    const shape = rankingShape(ranked[0], ranked[1]);
    if (shape) examples.push({ shape, correct: relevant.has(ranked[0].name), weight });
    const negative = rankingShape(others[0], others[1]);
    if (negative) examples.push({ shape: negative, correct: false, weight: weight * NEGATIVE_WEIGHT, negative: true });
    return examples;
  });
}

export interface ActivationCheck {
  set: string;
  queries: number;
  activated: number;
  activated_right: number;
  activation_rate: number;
  activated_precision: number | null;
  /** Of the "right power removed" rankings, how many would still auto-activate (a wrong power). */
  false_activations_when_absent: number;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

export function checkActivation(
  set: string,
  examples: TrainingExample[],
  model: CalibrationModel,
  threshold: number,
): ActivationCheck {
  const positives = examples.filter((e) => !e.negative);
  const activated = positives.filter((e) => activates(e, model, threshold));
  const right = activated.filter((e) => e.correct).length;
  return {
    set,
    queries: positives.length,
    activated: activated.length,
    activated_right: right,
    activation_rate: positives.length ? round(activated.length / positives.length) : 0,
    activated_precision: activated.length ? round(right / activated.length) : null,
    false_activations_when_absent: examples.filter((e) => e.negative && activates(e, model, threshold)).length,
  };
}

/** As the tiers decide: confident enough, and not a match mostly in passing. */
function activates(example: TrainingExample, model: CalibrationModel, threshold: number): boolean {
  return (
    topProbability(example.shape, model) >= threshold &&
    mayAutoActivate({ incidental: 1 - (example.shape.declared ?? 1) })
  );
}

/** The least out-of-sample activated precision a set may have. */
export const MIN_ACTIVATED_PRECISION = 0.97;

/**
 * Sets that share their queries (MCP-Bench with and without its tool lists) are one group: a set
 * is never validated by a model that was fitted on its own queries.
 */
const groupOf = (set: string) => set.replace(/-tools$/, '');

/**
 * Fits the confidence model with leave-one-set-out validation: for each group of sets, a model
 * fitted on the others ranks it. The activation threshold is the least (from `floor` up, in steps
 * of .0005) at which every set's out-of-sample activated precision is MIN_ACTIVATED_PRECISION or
 * more; the model that ships is fitted on all sets, and its in-sample figures are printed beside.
 */
export function calibrate(dir: string, floor: number) {
  const sets = devSets(dir).map((set) => ({ name: set.name, examples: examplesFor(set) }));
  const fit = (use: (name: string) => boolean) =>
    fitCalibration(
      sets.filter((s) => use(s.name)).flatMap((s) => s.examples),
      { useSemantic: false },
    );
  const folds = new Map(
    [...new Set(sets.map((s) => groupOf(s.name)))].map((group) => [group, fit((name) => groupOf(name) !== group)]),
  );
  const outOfSample = (threshold: number) =>
    sets.map((s) => checkActivation(s.name, s.examples, folds.get(groupOf(s.name))!, threshold));
  const precise = (checks: ActivationCheck[]) =>
    checks.every((c) => c.activated === 0 || c.activated_right / c.activated >= MIN_ACTIVATED_PRECISION);
  const model = fit(() => true);
  const inSample = (threshold: number) => sets.map((s) => checkActivation(s.name, s.examples, model, threshold));
  let threshold = floor;
  while (threshold < 0.999 && !precise(outOfSample(threshold)))
    threshold = Math.round((threshold + 0.0005) * 10000) / 10000;
  return {
    model,
    activate_threshold: threshold,
    in_sample: inSample(threshold),
    out_of_sample: outOfSample(threshold),
  };
}
