/** Text to search terms: camelCase and snake_case split, stop words dropped, Porter2 (Snowball English) stemming. */
import { stem } from './stem.js';
import { isStopWord } from './stop-words.js';
import { words } from './words.js';

/** The search terms of a text: words, stop words removed, stemmed. */
export function terms(text: string): string[] {
  return words(text)
    .filter((word) => !isStopWord(word))
    .map(stem);
}

/**
 * The user's own words behind matched search terms ("knowledge" for the stem "knowledg"), in the
 * order the query has them; a term no query word stems to is kept as it is.
 */
export function queryWordsFor(query: string, matched: readonly string[]): string[] {
  const wanted = new Set(matched);
  const found = new Map<string, string>();
  for (const word of words(query)) {
    if (isStopWord(word)) continue;
    const term = stem(word);
    if (wanted.has(term) && !found.has(term)) found.set(term, word);
  }
  return [...found.values(), ...matched.filter((term) => !found.has(term))];
}
