import type { Store } from '../store/store.js';
import { DEFAULT_WEIGHTS, type RankingWeights } from './learned-ranking.js';
import type { TuningResult } from './tune-weights.js';

const CACHE_MS = 60_000;
const cache = new WeakMap<Store, { at: number; weights: RankingWeights }>();

/**
 * The ranking weights in use: the tuned ones when a tuning was saved, else the defaults. Read at
 * most once a minute per store (tuning is rare; resolving is not).
 */
export function currentWeights(store: Store, now = Date.now()): RankingWeights {
  const cached = cache.get(store);
  if (cached && now - cached.at < CACHE_MS) return cached.weights;
  const weights = readWeights(store);
  cache.set(store, { at: now, weights });
  return weights;
}

function readWeights(store: Store): RankingWeights {
  const [row] = store.query<{ weights: string }>("SELECT weights FROM ranking_weights WHERE id = 'current'");
  return row ? { ...DEFAULT_WEIGHTS, ...(JSON.parse(row.weights) as Partial<RankingWeights>) } : DEFAULT_WEIGHTS;
}

export function saveWeights(store: Store, result: TuningResult): void {
  cache.delete(store);
  store.write({
    op: 'upsert',
    table: 'ranking_weights',
    row: {
      id: 'current',
      weights: JSON.stringify(result.weights),
      at: Date.now(),
      samples: result.samples,
      mrr_before: result.mrrBefore,
      mrr_after: result.mrrAfter,
    },
  });
}
