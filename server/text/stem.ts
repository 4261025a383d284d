/** Porter2 (Snowball English) stemming. */
import porter2 from 'wink-porter2-stemmer';

/** Invariant forms of the Snowball English definition that the package's list lacks (its tests show it). */
const PORTER2_INVARIANTS = new Set(['howe']);

/** Joins inflections and derivations of a word ("files", "filing" -> "file"). */
export function stem(word: string): string {
  if (!/^[a-z]+$/.test(word)) return word;
  return PORTER2_INVARIANTS.has(word) ? word : porter2(word);
}
