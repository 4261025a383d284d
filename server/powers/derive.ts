/** Description and keywords for imported powers, derived from the tools their server lists. */
import { leadAndRest, words as splitWords } from '../text/words.js';
import { stem } from '../text/stem.js';
import type { ServerWords } from './server-words.js';
import type { PowerDefinition } from './types.js';

export interface ToolSummary {
  name: string;
  description?: string;
}

/** How many of the tools' most frequent words describe a server that says nothing of itself. */
const MAX_ABOUT = 5;
const MAX_KEYWORDS = 20;
const MIN_KEYWORDS = 3;
const NAME_WEIGHT = 2;
/**
 * A tool description's words past its first sentence (how to call it, its errors, its caveats)
 * count this much of the first sentence's, which says what the tool does.
 */
const PROSE_WEIGHT = 0.1;
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

/**
 * One sentence about the whole server, as a user would say it: the server's own description
 * (serverInfo.description), else what its tools are mostly about (their most frequent words, one
 * per stem); led by its title when it has one. Instructions are guidance for the agent, not a
 * description: they are its steering.
 */
export function describeServer(
  power: Pick<PowerDefinition, 'name'>,
  tools: ToolSummary[],
  words: ServerWords = {},
  keywords: string[] = [],
): string {
  const label = words.title?.trim() || power.name;
  if (words.description?.trim())
    return words.title ? `${label}: ${firstSentence(words.description)}` : firstSentence(words.description);
  const seen = new Set<string>();
  const about = keywords.filter((w) => !seen.has(stem(w)) && seen.add(stem(w))).slice(0, MAX_ABOUT);
  if (about.length === 0) return label;
  const list = about.length > 1 ? `${about.slice(0, -1).join(', ')} and ${about[about.length - 1]}` : about[0];
  return `${label}: ${tools.length} tool${tools.length === 1 ? '' : 's'} about ${list}.`;
}

/**
 * How much a word tells one server from the others: its inverse document frequency over the
 * servers of the catalog (BM25's), so "file" in a catalog of file tools or "error" in every API's
 * tool texts weighs little and what only this server does weighs most.
 */
export type WordRarity = (word: string) => number;

/** Every word counts alike: a server described alone. */
const ALIKE: WordRarity = () => 1;

/**
 * The words a server says it does: its tools' names (counted twice) and descriptions (their first sentences
 * most), and its instructions' first sentence.
 */
function serverTerms(tools: ToolSummary[], said: ServerWords): { word: string; weight: number }[] {
  return [
    ...tools.flatMap((tool) => {
      const [lead, prose] = leadAndRest(tool.description ?? '');
      return [
        ...words(tool.name).map((word) => ({ word, weight: NAME_WEIGHT })),
        ...words(lead).map((word) => ({ word, weight: 1 })),
        ...words(prose).map((word) => ({ word, weight: PROSE_WEIGHT })),
      ];
    }),
    ...words(firstSentence(said.instructions ?? '')).map((word) => ({ word, weight: 1 })),
  ];
}

/** The rarity of words across a catalog: one entry per server, its tools and what it says of itself. */
export function catalogRarity(servers: { tools: ToolSummary[]; said?: ServerWords }[]): WordRarity {
  const documentFrequency = new Map<string, number>();
  for (const server of servers) {
    for (const word of new Set(serverTerms(server.tools, server.said ?? {}).map((t) => t.word)))
      documentFrequency.set(word, (documentFrequency.get(word) ?? 0) + 1);
  }
  const n = servers.length;
  return (word) => {
    const df = documentFrequency.get(word) ?? 0;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  };
}

export function deriveFromTools(
  power: Pick<PowerDefinition, 'name' | 'description' | 'serverWords'>,
  tools: ToolSummary[],
  said: ServerWords = power.serverWords ?? {},
  rarity: WordRarity = ALIKE,
): { description: string; keywords: string[] } {
  if (tools.length === 0) {
    const description = said.description || said.title ? describeServer(power, tools, said) : power.description;
    return { description, keywords: fallbackKeywords(power, []) };
  }

  const score = new Map<string, { count: number; first: number }>();
  let order = 0;
  for (const { word, weight } of serverTerms(tools, said)) {
    const entry = score.get(word) ?? { count: 0, first: order++ };
    entry.count += weight * rarity(word);
    score.set(word, entry);
  }
  const ranked = [...score]
    .sort(([, a], [, b]) => b.count - a.count || a.first - b.first)
    .map(([w]) => w)
    .slice(0, MAX_KEYWORDS);
  const keywords = fallbackKeywords(power, ranked);
  return { description: describeServer(power, tools, said, ranked), keywords };
}

/** Tops the list up to the minimum with the power's name words, then generic ones. */
function fallbackKeywords(power: Pick<PowerDefinition, 'name'>, keywords: string[]): string[] {
  const out = [...keywords];
  for (const w of [...words(power.name), power.name, 'mcp', 'server', 'tools']) {
    if (out.length >= MIN_KEYWORDS) break;
    if (w && !out.includes(w)) out.push(w);
  }
  return out;
}
