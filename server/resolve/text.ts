/** Text to search terms: camelCase and snake_case split, stop words dropped, Porter2 (Snowball English) stemming. */
import porter2 from 'wink-porter2-stemmer';

/** English function words and conversational filler: they say nothing about which tool is wanted. */
const STOP_WORDS = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below between ' +
    'both but by can cannot could did do does doing down during each either else even ever every few for from ' +
    'further had has have having he her here hers herself him himself his how however i if in into is it its itself ' +
    'just least less let lets like likely may me might mine more most much must my myself neither no nor not of off ' +
    'often on once only or other others otherwise our ours ourselves out over own per perhaps please quite rather ' +
    'really same she should since so some such than that the their theirs them themselves then there these they ' +
    'this those though through thus to too under until up upon us very via was we were what whatever when whenever ' +
    'where whether which while who whom whose why will with within without would yet you your yours yourself ' +
    'yourselves hey hi hello thanks thank okay ok im ive ill youre youve dont doesnt cant wont isnt arent ' +
    'want wants wanted need needs needed help helps trying try tried able kind sort lot lots bit little thing things ' +
    'stuff something anything everything someone anyone somebody anybody way ways actually basically honestly ' +
    'maybe sure also still already again etc'
  ).split(' '),
);

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]/u;

/** Splits identifiers (`readTextFile`, `read_text_file`, `get-env`) and prose into lower-case words. */
export function words(text: string): string[] {
  const spaced = text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase();
  const out: string[] = [];
  for (const token of spaced.split(/[^\p{L}\p{N}]+/u)) {
    if (!token) continue;
    if (CJK.test(token)) out.push(...cjkTerms(token));
    else out.push(token);
  }
  return out;
}

/** CJK text has no spaces: index single characters and bigrams so it matches without a segmenter. */
function cjkTerms(token: string): string[] {
  const chars = [...token];
  const terms = [...chars];
  for (let i = 0; i + 1 < chars.length; i += 1) terms.push(chars[i] + chars[i + 1]);
  return terms;
}

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/** Invariant forms of the Snowball English definition that the package's list lacks (its tests show it). */
const PORTER2_INVARIANTS = new Set(['howe']);

/** Joins inflections and derivations of a word ("files", "filing" -> "file"). */
export function stem(word: string): string {
  if (!/^[a-z]+$/.test(word)) return word;
  return PORTER2_INVARIANTS.has(word) ? word : porter2(word);
}

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

/**
 * A description's first sentence (of its first non-empty line), and the rest: what a tool says it
 * does comes first; what follows is how, when and with what, words a request matches only in
 * passing. A question opening it ("Planning a trip?") says no more of the tool than the rest: the
 * first sentence is the first statement, the question with it.
 */
export function leadAndRest(text: string): [string, string] {
  const trimmed = text.trim();
  const line = trimmed.split('\n')[0] ?? '';
  const sentence = line.match(/^.+?[.!](?=\s|$)/)?.[0] ?? line;
  return [sentence, trimmed.slice(sentence.length)];
}
