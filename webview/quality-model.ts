/** Recommendation quality and "why this power", computed from protocol payloads. No DOM: unit-tested under Node. */
import type {
  RankingWeightsInfo,
  RecommendationMetricsInfo,
  RecommendationStats,
  ScoreExplanation,
  TuneWeightsResult,
} from '../protocol/records.js';
import { formatNumber, formatPercent } from './format.js';

export const FACTORS: Array<keyof RankingWeightsInfo> = ['relevance', 'success', 'popularity', 'performance', 'rating'];

export const FACTOR_TEXT: Record<keyof RankingWeightsInfo, string> = {
  relevance: 'relevance',
  success: 'success rate',
  popularity: 'popularity',
  performance: 'speed',
  rating: 'your ratings',
};

export interface MetricCard {
  label: string;
  value: string;
  detail: string;
}

export function metricCards(metrics: RecommendationMetricsInfo): MetricCard[] {
  const followed = `${metrics.followed} of ${metrics.recommendations} recommendations followed`;
  return [
    { label: 'MRR', value: formatNumber(metrics.mrr), detail: 'mean reciprocal rank of the candidate the agent used' },
    { label: 'Precision@1', value: formatPercent(metrics.precisionAt1), detail: 'the agent used the top candidate' },
    { label: 'Precision@3', value: formatPercent(metrics.precisionAt3), detail: 'the agent used one of the top 3' },
    { label: 'Followed', value: String(metrics.followed), detail: followed },
  ];
}

export interface WeightBar {
  factor: keyof RankingWeightsInfo;
  label: string;
  weight: number;
  percent: number;
  defaultPercent: number;
  changed: boolean;
}

export function weightBars(stats: RecommendationStats): WeightBar[] {
  return FACTORS.map((factor) => ({
    factor,
    label: FACTOR_TEXT[factor],
    weight: stats.weights[factor],
    percent: Math.round(stats.weights[factor] * 100),
    defaultPercent: Math.round(stats.defaultWeights[factor] * 100),
    changed: Math.abs(stats.weights[factor] - stats.defaultWeights[factor]) > 1e-9,
  }));
}

/** Tuning can change something only with learning on and enough followed recommendations. */
export function canTune(stats: RecommendationStats): boolean {
  return stats.learning && stats.all.followed >= stats.minSamples;
}

export function tuneReadiness(stats: RecommendationStats): string {
  const samples = stats.all.followed;
  if (!stats.learning) return 'Learned ranking is off (setting ranking.learn): the weights are not used.';
  return samples >= stats.minSamples
    ? `${samples} followed recommendations: enough to tune the weights.`
    : `Tuning needs ${stats.minSamples} followed recommendations; ${samples} so far.`;
}

export function tuneMessage(result: TuneWeightsResult): string {
  if (!result.tuned) return `Weights unchanged: ${result.reason ?? 'no better weights found'}.`;
  const same = result.mrrAfter <= result.mrrBefore;
  return same
    ? `Tuned on ${result.samples} followed recommendations: the current weights are already the best found ` +
        `(MRR ${formatNumber(result.mrrBefore)}).`
    : `Tuned on ${result.samples} followed recommendations: MRR ${formatNumber(result.mrrBefore)} → ` +
        `${formatNumber(result.mrrAfter)}; the new weights are saved.`;
}

export interface ContributionSegment {
  factor: keyof RankingWeightsInfo;
  label: string;
  value: number;
  /** Share of the final score, 0..100. */
  percent: number;
}

/** Each factor's share of the final score, largest first, for the "why" bar. */
export function contributionSegments(explanation: ScoreExplanation): ContributionSegment[] {
  const total = FACTORS.reduce((sum, factor) => sum + explanation.contributions[factor], 0);
  return FACTORS.map((factor) => ({
    factor,
    label: FACTOR_TEXT[factor],
    value: explanation.contributions[factor],
    percent: total > 0 ? Math.round((explanation.contributions[factor] / total) * 1000) / 10 : 0,
  }));
}

const WHERE: Record<string, string> = {
  name: 'its name',
  keyword: 'its keywords',
  description: 'its description',
  tool: 'its tools',
  learned: 'requests it served before',
};

/** What matched, in plain sentences: the user's words, how strong the match is, how much of the request it covers. */
export function relevanceFacts(explanation: ScoreExplanation, matchType: string, matchedWords: string[]): string[] {
  const words = matchedWords.map((word) => `"${word}"`).join(', ');
  const facts = [
    matchedWords.length
      ? `Your words ${words} match ${WHERE[matchType] ?? `its ${matchType}`}.`
      : 'None of your words match it.',
  ];
  if (explanation.strength !== undefined) {
    const strength = explanation.strength >= 0.75 ? 'a strong' : explanation.strength >= 0.4 ? 'a fair' : 'a weak';
    facts.push(
      `It is ${strength} match (${formatPercent(explanation.strength)} of the best this request could reach).`,
    );
  }
  if (explanation.coverage !== undefined) {
    facts.push(
      explanation.coverage === 0
        ? 'It matches none of the rarer, more telling words of your request.'
        : explanation.coverage >= 0.999
          ? 'It matches every telling word of your request.'
          : `It matches ${formatPercent(explanation.coverage)} of what the telling words of your request weigh.`,
    );
  }
  facts.push(
    explanation.semantic !== undefined
      ? `Similar in meaning: ${formatPercent(Math.max(0, explanation.semantic))}.`
      : 'Compared by words only (semantic matching is off).',
  );
  facts.push(
    explanation.relativeRelevance >= 0.999
      ? 'The most relevant power for this request.'
      : `${formatPercent(explanation.relativeRelevance)} as relevant as the most relevant power.`,
  );
  return facts;
}

/** Why the power stands where it does, in one sentence. */
export function orderSentence(explanation: ScoreExplanation): string {
  return explanation.movedByHistory
    ? 'Powers that match about as well are ordered by how their past calls went; its history moved it here.'
    : 'Placed by how well it matches your request; past calls only reorder powers that match about as well.';
}

export function historyFacts(explanation: ScoreExplanation): string[] {
  const f = explanation.factors;
  if (f.calls === 0) return ['no calls yet: history is neutral'];
  return [
    `${f.calls} ${f.calls === 1 ? 'call' : 'calls'}`,
    `success ${formatPercent(f.success)}`,
    `popularity ${formatPercent(f.popularity)}`,
    `speed ${formatPercent(f.performance)}`,
    `ratings ${formatPercent(f.rating)}`,
    ...(explanation.movedByHistory ? ['moved by history among close candidates'] : []),
  ];
}
