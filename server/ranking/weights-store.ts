import type { Store } from '../store/store.js';
import { DEFAULT_WEIGHTS, type RankingWeights } from './learned-ranking.js';
import type { TuningResult } from './tune-weights.js';

/** The ranking weights in use: the tuned ones when a tuning was saved, else the defaults. */
export function currentWeights(store: Store): RankingWeights {
  const [row] = store.query<{ weights: string }>("SELECT weights FROM ranking_weights WHERE id = 'current'");
  return row ? { ...DEFAULT_WEIGHTS, ...(JSON.parse(row.weights) as Partial<RankingWeights>) } : DEFAULT_WEIGHTS;
}

export function saveWeights(store: Store, result: TuningResult): void {
  store.write({
    op: 'upsert',
    table: 'ranking_weights',
    row: { id: 'current', weights: JSON.stringify(result.weights), at: Date.now(), samples: result.samples, mrr_before: result.mrrBefore, mrr_after: result.mrrAfter },
  });
}
