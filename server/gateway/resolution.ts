import type { Settings } from '../config/settings.js';
import type { SpellExtensions } from '../powers/spell-schema.js';
import type { PowerDefinition } from '../powers/types.js';
import { availabilityFlags } from '../ranking/availability.js';
import { rerank, type FactorExplanation } from '../ranking/learned-ranking.js';
import type { RecommendationLog } from '../ranking/recommendations.js';
import { NEUTRAL } from '../ranking/usage-group.js';
import type { UsageStats } from '../ranking/usage-stats.js';
import { currentWeights } from '../ranking/weights-store.js';
import { decideTier, mayAutoActivate, TIER_SIZE, topCandidates } from '../resolve/tiers.js';
import type { PowerScore } from '../resolve/types.js';
import type { Tier } from '../../protocol/records.js';
import type { Store } from '../store/store.js';
import type { ToolPolicy } from '../trust/tool-policy.js';

export interface ResolveOptions {
  /** The MCP session asking: its next use of a candidate is credited to this answer. */
  sessionId?: string;
  /** Attach each candidate's factor contributions ("why this power"). */
  explain?: boolean;
}

export interface ResolvedCandidate extends PowerScore {
  /** Reasons the power may not work here (missing command, unset variable, unmet `when`). */
  flags: string[];
  explanation?: FactorExplanation;
}

export interface ResolveOutcome {
  query: string;
  tier: Tier;
  candidates: ResolvedCandidate[];
  ranked: ResolvedCandidate[];
  /** Set when the answer was ranked before every configured power's tools were listed. */
  partial?: PartialCatalog;
}

/** Powers whose tools were not known when the answer was ranked (still being listed, or never listed), and a line saying so. */
export interface PartialCatalog {
  pending: string[];
  /** Never listed and not being listed now (not started yet, or their listing failed): ranked on their names and descriptions. */
  unlisted: string[];
  note: string;
}

export function partialCatalog(pending: string[], unlisted: string[] = []): PartialCatalog | undefined {
  if (pending.length === 0 && unlisted.length === 0) return undefined;
  const names = (list: string[]) =>
    list.slice(0, 5).join(', ') + (list.length > 5 ? ` and ${list.length - 5} more` : '');
  const which = [
    pending.length ? `still listing: ${names(pending)}` : '',
    unlisted.length ? `not listed yet: ${names(unlisted)}` : '',
  ]
    .filter(Boolean)
    .join('; ');
  return {
    pending,
    unlisted,
    note:
      `Ranked before every power's tools were listed (${which}); ` +
      `${pending.length ? 'ask again shortly if nothing fits' : 'a power not listed yet is ranked on its name and description only'}.`,
  };
}

export interface ResolutionDeps {
  rank: (query: string) => Promise<PowerScore[]>;
  powers: () => PowerDefinition[];
  policy: Pick<ToolPolicy, 'powerRefusal'>;
  extensions: (name: string) => SpellExtensions | undefined;
  settings: Settings;
  store: Store;
  usage: UsageStats;
  recommendations: RecommendationLog;
  workspaceFolder?: string;
  /** Runs work after the answer is on its way (and before the store closes). */
  later: (work: () => void) => void;
  /**
   * Waits a short while for powers whose tools are being listed for the first time; resolves to
   * those still pending (none: the catalog is complete). `discover`: start listing the powers never
   * listed, if that was not asked yet (an agent's request; a ranking alone starts no server).
   */
  catalogPending?: (discover: boolean) => Promise<string[]>;
  /** The power's tools are known (listed now or before, or cached by its launch definition). */
  listed?: (name: string) => boolean;
  /** Why the power's server may not start yet (its launch awaits the user's approval): a flag, so it is never auto-activated. */
  launchFlag?: (power: PowerDefinition) => string | undefined;
  /** The power has a tool that is not declared read-only (it can write or run commands), or its tools are not known. */
  writes?: (name: string) => boolean;
}

/**
 * From a query to an answer: relevance from the resolver, disabled powers left out, close
 * candidates re-ranked by what the activity log has learned, availability flagged, the tier
 * decided (a flagged power is never auto-activated), and the answer remembered so the agent's
 * choice can be credited to it.
 */
export class Resolution {
  constructor(private readonly deps: ResolutionDeps) {}

  async resolve(query: string, options: ResolveOptions = {}): Promise<ResolveOutcome> {
    const { settings } = this.deps;
    const pending = (await this.deps.catalogPending?.(options.sessionId !== undefined)) ?? [];
    const byName = new Map(this.deps.powers().map((p) => [p.name, p]));
    const listed = this.deps.listed;
    const unlisted = listed
      ? [...byName.keys()].filter(
          (name) => !listed(name) && !pending.includes(name) && !this.deps.policy.powerRefusal(name),
        )
      : [];
    const partial = partialCatalog(pending, unlisted);
    const relevant = (await this.deps.rank(query)).filter(
      (c) => !this.deps.policy.powerRefusal(c.name) && byName.has(c.name),
    );
    // The resolver's relevance is on one 0..1 scale in both modes and its order is the ranking's:
    // history re-ranks on it, so a candidate moves only when history moved it.
    const usage = settings.ranking.learn ? this.deps.usage.forPowers() : new Map();
    const reranked = rerank(relevant, (name) => usage.get(name), currentWeights(this.deps.store));
    const ranked: ResolvedCandidate[] = reranked.map(({ explanation, ...candidate }) => ({
      ...candidate,
      flags: this.flags(byName.get(candidate.name)!),
      ...(options.explain ? { explanation } : {}),
    }));
    let { tier, candidates } = decideTier(ranked, settings.resolve);
    // A power that can write or run commands starts only on a match it declares itself by.
    if (
      tier === 'activated' &&
      (candidates[0].flags.length > 0 ||
        !mayAutoActivate(candidates[0], { writes: this.deps.writes?.(candidates[0].name) ?? true }))
    ) {
      tier = 'multiple_matches';
      candidates = topCandidates(ranked, TIER_SIZE.multiple_matches);
    }
    if (options.sessionId && ranked.length > 0) {
      const entry = {
        session: options.sessionId,
        source: 'resolve_intent' as const,
        query,
        candidates: reranked
          .slice(0, 5)
          .map((c) => ({ name: c.name, relevance: c.relevance, factors: usage.get(c.name) ?? NEUTRAL })),
      };
      // Kept after the answer is on its way: a durable write costs an fsync the agent need not wait for.
      this.deps.later(() => this.deps.recommendations.record(entry));
    }
    return { query, tier, candidates, ranked, ...(partial ? { partial } : {}) };
  }

  /** Checked on every resolve (availability.ts keeps it cheap): an installed command shows without a restart. */
  private flags(power: PowerDefinition): string[] {
    const launch = this.deps.launchFlag?.(power);
    return [
      ...availabilityFlags(power, this.deps.extensions(power.name), { workspaceFolder: this.deps.workspaceFolder }),
      ...(launch ? [launch] : []),
    ];
  }
}
