/**
 * Confidence that means what it says: the probability that the top-ranked candidate is the one
 * wanted, from a logistic model over how the ranking looks (the top's lead over the next, how much
 * of the query's catalog-known words it covers, how much of its match is in its name or keywords,
 * how strong its match is; with a model loaded, the
 * semantic similarity and its lead too). No feature grows or shrinks with the query's length, so
 * the model does not learn which data set a query came from. Fitted on the development sets by
 * `grimoire calibrate` with leave-one-set-out validation, with "negatives" (the same queries with
 * the right power removed) so that a query no power serves is not auto-activated because of its
 * best near-miss.
 */

export interface RankingShape {
  /** ln(top score / runner-up score), within 0..3 (3 when nothing else matched): how clearly the top leads. */
  lead: number;
  /** The top's score over the best score the query's catalog-known words could reach (0..1). */
  strength: number;
  /** IDF-weighted share of the query's catalog-known subject words the top matched (0..1). */
  coverage: number;
  /** The share of the top's score matched in its name or keywords, what it declares itself to be (0..1). */
  identity: number;
  /** The share of the top's score on words it declares itself by (not only in its tools' prose or parameter names) (0..1). */
  declared?: number;
  /** Cosine similarity of query and top candidate, when a model is loaded. */
  semantic?: number;
  /** The top's cosine minus the best other cosine, when a model is loaded. */
  semanticLead?: number;
}

export interface CalibrationModel {
  bias: number;
  lead: number;
  strength: number;
  coverage: number;
  /** Absent in a model fitted before the feature existed: it then counts nothing. */
  identity?: number;
  /** Absent in a model fitted before the feature existed: it then counts nothing. */
  declared?: number;
  semantic: number;
  semanticLead: number;
  /** How the model was fitted: data, command, figures. */
  fitted?: Record<string, unknown>;
}

const FEATURES = ['lead', 'strength', 'coverage', 'identity', 'declared', 'semantic', 'semanticLead'] as const;
const MAX_LEAD = 3;

/** The shape of a ranking, from its two best candidates. */
export function rankingShape(
  top:
    | { score: number; normalized: number; coverage: number; identity?: number; incidental?: number; semantic?: number }
    | undefined,
  second: { score: number } | undefined,
  secondSemantic?: number,
): RankingShape | undefined {
  if (!top || top.score <= 0) return undefined;
  // A top that matched none of the request's subject words (only its verbs or request words)
  // leads nobody, however alone it is: "delete old snapshots" is not about the one power with a delete tool.
  const lead =
    top.coverage > 0 ? Math.min(MAX_LEAD, Math.max(0, Math.log(top.score / Math.max(second?.score ?? 0, 1e-9)))) : 0;
  const shape: RankingShape = {
    lead,
    strength: top.normalized,
    coverage: top.coverage,
    identity: top.identity ?? 0,
    declared: 1 - (top.incidental ?? 0),
  };
  if (top.semantic !== undefined) {
    shape.semantic = top.semantic;
    shape.semanticLead = top.semantic - (secondSemantic ?? 0);
  }
  return shape;
}

export function topProbability(shape: RankingShape, model: CalibrationModel): number {
  let z = model.bias;
  for (const feature of FEATURES) z += (model[feature] ?? 0) * (shape[feature] ?? 0);
  return 1 / (1 + Math.exp(-z));
}

export interface TrainingExample {
  shape: RankingShape;
  /** The top candidate is a right one. */
  correct: boolean;
  /** How much this example counts (to balance data sets of different sizes). */
  weight: number;
  /** A ranking with the right candidates removed: whatever is on top is wrong. */
  negative?: boolean;
}

/**
 * Features fitted after the others, as a lift over them: the bias and the other weights stay as
 * the first fit left them. Identity matches (name, keywords) are rarer than the rest; fitted
 * jointly, the model lowers every top without one (its bias drops) and pushes requests it ranks
 * well below the weak threshold. As a lift, identity can only add confidence, and a top without
 * an identity match keeps the confidence the other features give it.
 */
const LIFTS = ['identity', 'declared'] as const;

type Weights = Required<Omit<CalibrationModel, 'fitted'>>;

/**
 * Weighted logistic regression by gradient descent with a small L2 penalty, in two stages (the
 * base features with the bias, then the lifts). Feature weights are kept non-negative, so every
 * factor can only raise confidence (and explain itself that way). Deterministic.
 */
export function fitCalibration(
  examples: TrainingExample[],
  options: { useSemantic: boolean; iterations?: number; rate?: number },
): CalibrationModel {
  const model: Weights = {
    bias: 0,
    lead: 0,
    strength: 0,
    coverage: 0,
    identity: 0,
    declared: 0,
    semantic: 0,
    semanticLead: 0,
  };
  // Strength (the share of the reachable score) shrinks as a request grows longer: fitted, it
  // would tell the model which data set a query came from, so it stays out of the fit.
  const used = FEATURES.filter(
    (f) => f !== 'strength' && (options.useSemantic || (f !== 'semantic' && f !== 'semanticLead')),
  );
  const lifts = used.filter((f) => (LIFTS as readonly string[]).includes(f));
  const base = used.filter((f) => !lifts.includes(f));
  descend(model, examples, base, true, options);
  descend(model, examples, lifts, false, options);
  return model;
}

function descend(
  model: Weights,
  examples: TrainingExample[],
  features: Array<(typeof FEATURES)[number]>,
  fitBias: boolean,
  options: { iterations?: number; rate?: number },
): void {
  const iterations = options.iterations ?? 4000;
  const rate = options.rate ?? 1;
  const l2 = 1e-4;
  const total = examples.reduce((sum, e) => sum + e.weight, 0) || 1;
  for (let step = 0; step < iterations; step += 1) {
    const grad: Record<string, number> = { bias: 0 };
    for (const example of examples) {
      const error = (topProbability(example.shape, model) - (example.correct ? 1 : 0)) * example.weight;
      grad.bias += error;
      for (const feature of features) grad[feature] = (grad[feature] ?? 0) + error * (example.shape[feature] ?? 0);
    }
    if (fitBias) model.bias -= (rate * grad.bias) / total;
    for (const feature of features)
      model[feature] = Math.max(0, model[feature] - rate * (grad[feature] / total + l2 * model[feature]));
  }
}

/**
 * Confidence for every ranked candidate: the top gets its calibrated probability; the rest share
 * what is left in proportion to their squared scores, never above the top.
 */
export function spreadConfidence(scores: number[], top: number): number[] {
  const rest = scores.slice(1).map((s) => Math.max(0, s) ** 2);
  const sum = rest.reduce((a, b) => a + b, 0);
  return [top, ...rest.map((r) => (sum > 0 ? Math.min(top, ((1 - top) * r) / sum) : 0))];
}
