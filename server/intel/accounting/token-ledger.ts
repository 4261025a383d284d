/**
 * Token accounting: for every summarized (or cache-served) result, the tokens of the raw result
 * and of what the agent got instead, one `intel_calls` row each. Counting runs off the call path
 * (the tokenizer is slow to build and large texts take milliseconds); `flush` waits for it.
 */
import { randomUUID } from 'node:crypto';
import { errorMessage, logger } from '../../log.js';
import type { Store } from '../../store/store.js';
import type { Tokenizer } from '../tokens/tokenizer.js';
import { expiredIntelCallsOp, intelCallInsert, rawTokensOf } from './intel-calls-table.js';

const log = logger('intel');

/** hit: served from the cache; miss: a read-only call summarized anew; similar: wording reused; none: not cacheable. */
export type CacheOutcome = 'hit' | 'miss' | 'similar' | 'none';

export interface LedgerEntry {
  at: number;
  power: string;
  tool: string;
  artifactId?: string;
  summarizer: string;
  cache: CacheOutcome;
  stored: boolean;
  rawBytes: number;
  /** Counted here, unless known (a cache hit reuses the first call's count). */
  raw?: string;
  rawTokens?: number;
  delivered: string;
}

export class TokenLedger {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly store: Store,
    private readonly tokenizer: Tokenizer,
  ) {}

  /** Counts and records in the background; never throws. */
  record(entry: LedgerEntry): void {
    this.track(entry, () => this.write(entry));
  }

  /**
   * Records a cache hit of an artifact: its raw tokens are those counted for the artifact's first
   * call (read from the table), else counted from its body (`raw`, read when needed).
   */
  recordHit(entry: LedgerEntry & { artifactId: string }, raw: () => Promise<string | undefined>): void {
    this.track(entry, async () => {
      const rawTokens = await rawTokensOf(this.store, entry.artifactId);
      await this.write(rawTokens === undefined ? { ...entry, raw: (await raw()) ?? '' } : { ...entry, rawTokens });
    });
  }

  /** Waits until every recorded entry is counted and written. */
  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** Runs `work` after the answer is on its way (counting a large result takes milliseconds), kept until flushed; never throws. */
  private track(entry: Pick<LedgerEntry, 'power' | 'tool'>, work: () => Promise<void>): void {
    const done = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .catch((error) => log.warn(`token accounting failed for ${entry.power}:${entry.tool}: ${errorMessage(error)}`));
    this.pending.add(done);
    void done.finally(() => this.pending.delete(done));
  }

  async prune(retentionDays: number, now = Date.now()): Promise<void> {
    const cutoff = now - retentionDays * 86_400_000;
    const expired = await expiredIntelCallsOp(this.store, cutoff);
    if (expired) this.store.write(expired);
  }

  private async write(entry: LedgerEntry): Promise<void> {
    const texts = entry.rawTokens === undefined ? [entry.raw ?? '', entry.delivered] : [entry.delivered];
    const counts = await this.tokenizer.count(texts);
    const rawTokens = entry.rawTokens ?? counts[0]!;
    const deliveredTokens = counts[counts.length - 1]!;
    this.store.write(
      intelCallInsert({
        id: randomUUID(),
        at: entry.at,
        power: entry.power,
        tool: entry.tool,
        artifact_id: entry.artifactId ?? null,
        summarizer: entry.summarizer,
        cache: entry.cache,
        stored: entry.stored ? 1 : 0,
        raw_bytes: entry.rawBytes,
        raw_tokens: rawTokens,
        delivered_tokens: deliveredTokens,
      }),
    );
  }
}
