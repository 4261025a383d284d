import { DOMAINS } from './lexicon/domains.js';
import { stem } from '../text/stem.js';

/** A tag term cannot collide with a word: words never contain '#'. */
const TAG_PREFIX = '#';

const CUES = new Map<string, string[]>();
for (const [domain, cues] of Object.entries(DOMAINS)) {
  for (const cue of cues.split(' ')) {
    const term = stem(cue);
    const domains = CUES.get(term) ?? [];
    if (!domains.includes(domain)) domains.push(domain);
    CUES.set(term, domains);
  }
}

/** The domain tags a list of (stemmed) terms signals, with how many terms signal each. */
export function domainTags(terms: string[]): Map<string, number> {
  const tags = new Map<string, number>();
  for (const term of new Set(terms)) {
    for (const domain of CUES.get(term) ?? []) tags.set(TAG_PREFIX + domain, (tags.get(TAG_PREFIX + domain) ?? 0) + 1);
  }
  return tags;
}

/** Beyond this many terms, a document is about a domain only when two different words signal it. */
const SHORT_DOCUMENT = 20;

/**
 * Tag terms to index next to a document's words, each repeated once per signalling term. In a
 * long document one stray word ("destination" in a file tool) does not make a domain; in a
 * one-line description it has to.
 */
export function domainTagTerms(terms: string[]): string[] {
  const minimum = terms.length > SHORT_DOCUMENT ? 2 : 1;
  return [...domainTags(terms)]
    .filter(([, count]) => count >= minimum)
    .flatMap(([tag, count]) => Array<string>(count).fill(tag));
}
