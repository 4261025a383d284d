/** Description and keywords for imported powers, derived from the tools their server lists. */
import { words as splitWords } from '../resolve/text.js';
import type { PowerDefinition } from './types.js';

export interface ToolSummary {
  name: string;
  description?: string;
}

const MAX_NAMES = 8;
const MAX_KEYWORDS = 20;
const MIN_KEYWORDS = 3;
const NAME_WEIGHT = 2;
/** A server's tool description can be any length; the sentence borrowed from it cannot. */
const SENTENCE_CHARS = 300;

const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can could do does for from has have if in into is it its may might must no not of on or ' +
    'our should so such than that the their them then there these they this those to was were what when where which while who ' +
    'will with within without would you your all any each other more most some only also via per about after before over under ' +
    'using use used uses given provided specified optional required returns return returned get set list lists tool tools ' +
    'value values item items new one two true false default etc'
  ).split(' '),
);

/** The informative words of a tool name or description (identifiers split, stop words dropped). */
export function words(text: string): string[] {
  return splitWords(text).filter((w) => w.length > 2 && !/^\d+$/.test(w) && !STOP_WORDS.has(w));
}

function firstSentence(text: string): string {
  const line = text.trim().split(/\n/)[0].trim();
  const end = line.search(/[.!?](\s|$)/);
  const sentence = end < 0 ? line : line.slice(0, end + 1);
  return sentence.length > SENTENCE_CHARS ? `${sentence.slice(0, SENTENCE_CHARS - 1)}…` : sentence;
}

export function deriveFromTools(power: PowerDefinition, tools: ToolSummary[]): { description: string; keywords: string[] } {
  if (tools.length === 0) return { description: power.description, keywords: fallbackKeywords(power, []) };
  const names = tools.slice(0, MAX_NAMES).map((t) => t.name);
  const more = tools.length > MAX_NAMES ? ` and ${tools.length - MAX_NAMES} more` : '';
  const described = tools.find((t) => t.description?.trim());
  const sentence = described?.description ? ` — ${firstSentence(described.description)}` : '';
  const description = `Tools: ${names.join(', ')}${more}${sentence}`;

  const score = new Map<string, { count: number; first: number }>();
  let order = 0;
  const add = (word: string, weight: number) => {
    const entry = score.get(word) ?? { count: 0, first: order++ };
    entry.count += weight;
    score.set(word, entry);
  };
  for (const tool of tools) {
    for (const w of words(tool.name)) add(w, NAME_WEIGHT);
    for (const w of words(tool.description ?? '')) add(w, 1);
  }
  const ranked = [...score]
    .sort(([, a], [, b]) => b.count - a.count || a.first - b.first)
    .map(([w]) => w)
    .slice(0, MAX_KEYWORDS);
  return { description, keywords: fallbackKeywords(power, ranked) };
}

/** Tops the list up to the minimum with the power's name words, then generic ones. */
function fallbackKeywords(power: PowerDefinition, keywords: string[]): string[] {
  const out = [...keywords];
  for (const w of [...words(power.name), power.name, 'mcp', 'server', 'tools']) {
    if (out.length >= MIN_KEYWORDS) break;
    if (w && !out.includes(w)) out.push(w);
  }
  return out;
}
