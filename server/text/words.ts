/** Text split into lower-case words, and a tool's description into its lead sentence and the rest. */

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
