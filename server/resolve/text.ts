/** Text to search terms: camelCase and snake_case split, stop words dropped, light stemming. */

const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can could do does for from get had has have how i if in into is it its ' +
    'me my of on or our please should so some than that the their them then there these this to up us use using ' +
    'want was we what when where which who will with would you your need help let lets make sure also just via ' +
    'all any each other new one'
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

/** Strips common English inflections so "files", "reading" and "read" meet. */
export function stem(word: string): string {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return word.slice(0, -3) + 'y';
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('ing') && word.length > 5) return trimDouble(word.slice(0, -3));
  if (word.endsWith('ed') && word.length > 4) return trimDouble(word.slice(0, -2));
  if (word.endsWith('es') && /(x|ch|sh|ss)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is')) return word.slice(0, -1);
  return word;
}

function trimDouble(word: string): string {
  return /([b-df-hj-np-tv-z])\1$/.test(word) && !/(ll|ss|zz)$/.test(word) ? word.slice(0, -1) : word;
}

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/** The search terms of a text: words, stop words removed, stemmed. */
export function terms(text: string): string[] {
  return words(text)
    .filter((word) => !isStopWord(word))
    .map(stem);
}
