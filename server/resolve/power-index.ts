import type { HybridResolver, ResolverStatus } from './hybrid-resolver.js';
import type { PowerDocument, PowerScore } from './types.js';

/**
 * The resolver's index of the powers' search documents, and its rankings of powers (cached per
 * normalized query until the next re-index) and of tools. `reindex` reads the documents anew.
 */
export class PowerIndex {
  private cache = new Map<string, PowerScore[]>();

  constructor(
    private readonly resolver: HybridResolver,
    private readonly documents: () => PowerDocument[],
  ) {}

  reindex(): void {
    this.resolver.index(this.documents());
    this.cache = new Map();
  }

  /** Powers for a query, best first. */
  async rank(query: string): Promise<PowerScore[]> {
    const normalized = query.trim().toLowerCase().replace(/\s+/g, ' ');
    const key = `${this.resolver.status().mode}\u0000${normalized}`;
    let ranked = this.cache.get(key);
    if (!ranked) {
      ranked = await this.resolver.rank(normalized);
      if (this.cache.size > 500) this.cache.clear();
      this.cache.set(key, ranked);
    }
    return ranked;
  }

  /** Tools across all powers for a query, best first, named `power:tool`. */
  rankTools(query: string): Promise<PowerScore[]> {
    return this.resolver.rankTools(query);
  }

  /** Lexical-only or hybrid, and why. */
  status(): ResolverStatus {
    return this.resolver.status();
  }
}
