import type { WeightedTerm } from './bm25f.js';
import { ACTION_VERBS, GENERIC_REQUEST_WORDS } from './lexicon/request-words.js';
import { domainTags } from './domain-tags.js';
import { stem, terms } from './text.js';

const GENERIC = new Set(GENERIC_REQUEST_WORDS.split(' ').map(stem));
const ACTIONS = new Set(Object.values(ACTION_VERBS).flatMap((words) => words.split(' ').map(stem)));

/** Weights of the query's terms by kind, relative to a subject word (1). */
export const QUERY_WEIGHTS = { generic: 0.25, action: 0.6, domain: 0.7, phrase: 0.5 };

export interface QueryAnalysis {
  terms: WeightedTerm[];
  actions: string[];
  domains: string[];
}

/**
 * The weighted search terms of a query: subject words count fully (a repeat counts twice at most),
 * action verbs and generic request words less, and the domains its words signal are added as tags.
 */
export function analyzeQuery(query: string): QueryAnalysis {
  const all = terms(query);
  const counts = new Map<string, number>();
  for (const term of all) counts.set(term, (counts.get(term) ?? 0) + 1);
  const weighted: WeightedTerm[] = [...counts].map(([term, count]) => ({ term, weight: Math.min(count, 2) * termWeight(term) }));
  const tags = domainTags(all);
  for (const [tag, count] of tags) weighted.push({ term: tag, weight: QUERY_WEIGHTS.domain * Math.min(count, 2) });
  for (const phrase of new Set(bigrams(all))) weighted.push({ term: phrase, weight: QUERY_WEIGHTS.phrase });
  return {
    terms: weighted,
    actions: [...counts.keys()].filter((t) => ACTIONS.has(t)),
    domains: [...tags.keys()],
  };
}

export function queryTerms(query: string): WeightedTerm[] {
  return analyzeQuery(query).terms;
}

function termWeight(term: string): number {
  if (GENERIC.has(term)) return QUERY_WEIGHTS.generic;
  if (ACTIONS.has(term)) return QUERY_WEIGHTS.action;
  return 1;
}

/** Adjacent pairs of terms ("stock price"), so a phrase the document also has counts extra. */
export function bigrams(sequence: string[]): string[] {
  const pairs: string[] = [];
  for (let i = 0; i + 1 < sequence.length; i += 1) pairs.push(`${sequence[i]} ${sequence[i + 1]}`);
  return pairs;
}
