import type { WeightedTerm } from '../text/bm25f.js';
import { GENERIC_REQUEST_WORDS } from './lexicon/request-words.js';
import { actionWords, clauseWords, keepsAFact } from './request-actions.js';
import { domainTags } from './domain-tags.js';
import { isStopWord } from '../text/stop-words.js';
import { stem } from '../text/stem.js';
import { words } from '../text/words.js';

/**
 * Request words are recognised by the word the user wrote, not by its stem: "news", "settings",
 * "logs" and "measurement" are subjects, though they stem like "new", "set", "log" and "measure".
 */
const GENERIC = new Set(GENERIC_REQUEST_WORDS.split(' '));

/** Words that introduce a thing's name: the word after them is a value to use, not what the request is about ("a folder named reports"). */
const NAMING = new Set(['called', 'named', 'titled']);

/** Weights of the query's terms by kind, relative to a subject word (1). */
export const QUERY_WEIGHTS = { generic: 0.25, action: 0.6, domain: 0.7, phrase: 0.5 };

/** How much the words of a clause about what the request names count ("note that she moved to Berlin"). */
const CLAUSE_WEIGHT = 0.5;

/**
 * A request with at most this many subject words is short: its verb is a large part of what it
 * says and often names the tool ("list issues", "send email"), so the verb counts fully.
 */
export const SHORT_REQUEST = 3;

export interface QueryAnalysis {
  terms: WeightedTerm[];
  actions: string[];
  domains: string[];
}

/**
 * The weighted search terms of a query: subject words count fully (a repeat counts twice at most),
 * action verbs (in a request that is not short) and generic request words less, and the domains
 * its words signal are added as tags.
 */
export function analyzeQuery(request: string): QueryAnalysis {
  const query = withoutAddresses(request);
  const list = words(query);
  const verbs = actionWords(list);
  const clause = clauseWords(query);
  // A verb that is as often a noun, standing as the request's verb, is matched by what tools do
  // (their action tags), not as a word: "record that Alice manages Bob" is not about the records
  // of a database, nor "log my hours" about a git log.
  const surface = list.flatMap((w, i) =>
    isStopWord(w) || verbs[i] === 'verb-of-noun'
      ? []
      : [{ w, verb: verbs[i] === 'verb', clause: clause[i], name: i > 0 && NAMING.has(list[i - 1]) }],
  );
  const all = surface.map(({ w }) => stem(w));
  // The stand-in for an address says the request acts on one, as a request word does, not what it is about.
  const standIn = query !== request && !words(request).includes(ADDRESS_WORD);
  const kinds = surface.map(({ w, verb, name }) =>
    GENERIC.has(w) || name || (standIn && w === ADDRESS_WORD) ? 'generic' : verb ? 'action' : 'subject',
  );
  const subjects = kinds.filter((k) => k === 'subject').length;
  const actionWeight = subjects <= SHORT_REQUEST ? 1 : QUERY_WEIGHTS.action;
  const counts = new Map<string, { count: number; weight: number; subject: boolean }>();
  all.forEach((term, i) => {
    const w =
      (kinds[i] === 'generic' ? QUERY_WEIGHTS.generic : kinds[i] === 'action' ? actionWeight : 1) *
      (surface[i].clause ? CLAUSE_WEIGHT : 1);
    const entry = counts.get(term) ?? { count: 0, weight: 0, subject: false };
    entry.count += 1;
    entry.weight = Math.max(entry.weight, w);
    entry.subject ||= kinds[i] === 'subject';
    counts.set(term, entry);
  });
  const weighted: WeightedTerm[] = [...counts].map(([term, { count, weight, subject }]) => ({
    term,
    weight: Math.min(count, 2) * weight,
    ...(subject ? { subject } : {}),
  }));
  // A fact to keep is in the domain of facts, whatever its own words are about.
  const tags = domainTags(keepsAFact(list) ? [...all, stem('fact')] : all);
  for (const [tag, count] of tags) weighted.push({ term: tag, weight: QUERY_WEIGHTS.domain * Math.min(count, 2) });
  for (const phrase of new Set(bigrams(all))) weighted.push({ term: phrase, weight: QUERY_WEIGHTS.phrase });
  return {
    terms: weighted,
    actions: [...new Set(all.filter((_, i) => kinds[i] === 'action'))],
    domains: [...tags.keys()],
  };
}

/** The word an address stands as. */
const ADDRESS_WORD = 'url';

/** A web address in a request ("get the JSON from https://api.example.com/status"). */
const ADDRESS = /\b(?:https?|ftp|wss?):\/\/[^\s"'<>]+/giu;

/**
 * A web address is what to act on, not what the request is about: its host and path words ("api",
 * "example", "status") would match tools by chance. It stays as the word "url", counted as a
 * request word: it says the request acts on a web address, and every tool that takes one says
 * "URL", so it is no reason to prefer the one whose first sentence says so over the one whose
 * name says what the request wants ("download the page at https://... as markdown").
 */
function withoutAddresses(query: string): string {
  return query.replace(ADDRESS, ` ${ADDRESS_WORD} `);
}

export function queryTerms(query: string): WeightedTerm[] {
  return analyzeQuery(query).terms;
}

/** Adjacent pairs of terms ("stock price"), so a phrase the document also has counts extra. */
export function bigrams(sequence: string[]): string[] {
  const pairs: string[] = [];
  for (let i = 0; i + 1 < sequence.length; i += 1) pairs.push(`${sequence[i]} ${sequence[i + 1]}`);
  return pairs;
}
