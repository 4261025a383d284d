import { DEFAULT_WEIGHTS, type RankingWeights } from './learned-ranking.js';
import { replayMrr } from './history-metrics.js';
import type { Recommendation } from './recommendations.js';

export const MIN_SAMPLES = 20;
const STEP = 0.05;
const FLOOR = 0.05;
/** Relevance keeps at least this share: learned factors re-rank, they never take over. */
const RELEVANCE_FLOOR = 0.3;

export interface TuningResult {
  weights: RankingWeights;
  samples: number;
  mrrBefore: number;
  mrrAfter: number;
  tuned: boolean;
  reason?: string;
}

/**
 * A small, deterministic hill climb on the simplex: move 0.05 of weight from one factor to
 * another while the replayed MRR of the followed recommendations improves, every weight staying
 * at or above 0.05 (relevance at or above 0.3) and the weights always summing to 1.
 */
export function tuneWeights(history: Recommendation[], start: RankingWeights = DEFAULT_WEIGHTS): TuningResult {
  const samples = history.filter((r) => r.used !== undefined).length;
  const mrrBefore = replayMrr(history, start);
  if (samples < MIN_SAMPLES) {
    return {
      weights: start,
      samples,
      mrrBefore,
      mrrAfter: mrrBefore,
      tuned: false,
      reason: `needs ${MIN_SAMPLES} followed recommendations, has ${samples}`,
    };
  }
  const keys = Object.keys(start) as Array<keyof RankingWeights>;
  let best = { ...start };
  let bestMrr = mrrBefore;
  for (let round = 0; round < 100; round += 1) {
    let improved = false;
    for (const to of keys) {
      for (const from of keys) {
        if (to === from) continue;
        const floor = from === 'relevance' ? RELEVANCE_FLOOR : FLOOR;
        if (best[from] - STEP < floor - 1e-9) continue;
        const next = { ...best, [to]: round2(best[to] + STEP), [from]: round2(best[from] - STEP) };
        const mrr = replayMrr(history, next);
        if (mrr > bestMrr + 1e-9) {
          best = next;
          bestMrr = mrr;
          improved = true;
        }
      }
    }
    if (!improved) break;
  }
  return { weights: best, samples, mrrBefore, mrrAfter: bestMrr, tuned: true };
}

const round2 = (x: number) => Math.round(x * 100) / 100;
