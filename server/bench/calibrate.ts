import * as path from 'node:path';
import { fitCalibration, rankingShape, topProbability, type CalibrationModel, type TrainingExample } from '../resolve/calibration.js';
import { LexicalResolver } from '../resolve/lexical-resolver.js';
import { benchPowers, readJsonl, type BenchQuery, type BenchServer, type BenchTool } from './dataset.js';

/** The development sets of ../shared/benchmarks, as the resolver is calibrated and measured on them. */
export interface DevSet {
  name: string;
  servers: string;
  tools?: string;
  queries: string;
  queryField: 'query' | 'task_description';
}

export function devSets(dir: string): DevSet[] {
  const metatool = (file: string) => ({ servers: path.join(dir, 'metatool', 'servers.jsonl'), tools: path.join(dir, 'metatool', 'tools.jsonl'), queries: path.join(dir, 'metatool', file) });
  const mcpBench = { servers: path.join(dir, 'mcp-bench', 'servers.jsonl'), queries: path.join(dir, 'mcp-bench', 'queries.jsonl') };
  return [
    { name: 'metatool-single', ...metatool('queries_single.jsonl'), queryField: 'query' },
    { name: 'metatool-multi', ...metatool('queries_multi.jsonl'), queryField: 'query' },
    { name: 'mcp-bench-query', ...mcpBench, queryField: 'query' },
    { name: 'mcp-bench-task', ...mcpBench, queryField: 'task_description' },
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
    if (negative) examples.push({ shape: negative, correct: false, weight: weight * NEGATIVE_WEIGHT });
    return examples;
  });
}

export interface ActivationCheck {
  set: string;
  activated: number;
  activated_precision: number | null;
  /** Of the "right power removed" rankings, how many would still auto-activate (a wrong power). */
  false_activations_when_absent: number;
}

export function checkActivation(set: string, examples: TrainingExample[], model: CalibrationModel, threshold: number): ActivationCheck {
  const positives = examples.filter((e) => e.weight > 0 && !isNegative(e, examples));
  const negatives = examples.filter((e) => isNegative(e, examples));
  const activated = positives.filter((e) => topProbability(e.shape, model) >= threshold);
  const right = activated.filter((e) => e.correct).length;
  return {
    set,
    activated: activated.length,
    activated_precision: activated.length ? Math.round((right / activated.length) * 1000) / 1000 : null,
    false_activations_when_absent: negatives.filter((e) => topProbability(e.shape, model) >= threshold).length,
  };
}

function isNegative(example: TrainingExample, examples: TrainingExample[]): boolean {
  return example.weight < Math.max(...examples.map((e) => e.weight));
}

export function calibrate(dir: string, threshold: number) {
  const sets = devSets(dir).map((set) => ({ set, examples: examplesFor(set) }));
  const fit = (names: (n: string) => boolean) => fitCalibration(sets.filter((s) => names(s.set.name)).flatMap((s) => s.examples), { useSemantic: false });
  const model = fit(() => true);
  const fromMetatool = fit((n) => n.startsWith('metatool'));
  const fromMcpBench = fit((n) => n.startsWith('mcp-bench'));
  return {
    model,
    checks: sets.map((s) => checkActivation(s.set.name, s.examples, model, threshold)),
    held_out: sets.map((s) => ({
      fitted_on: s.set.name.startsWith('metatool') ? 'mcp-bench' : 'metatool',
      ...checkActivation(s.set.name, s.examples, s.set.name.startsWith('metatool') ? fromMcpBench : fromMetatool, threshold),
    })),
  };
}
