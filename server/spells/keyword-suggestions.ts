/**
 * Keywords for a spell, from what is known of its server: its name, its tool names, its description.
 * A keyword should name what the power is about: stop words, words any MCP server could claim
 * ("mcp", "server", "tools") and the verbs every tool list repeats ("add", "get", "list") are left
 * out; the words that recur across the tool names come first. When the name and the tool names
 * signal one of the resolver's domains by two different words or more, that domain's first words
 * are added too: the words a user says for it ("remember" for a knowledge graph of entities),
 * which a server's own tool names rarely use.
 */
import { domainTags } from '../resolve/domain-tags.js';
import { DOMAINS } from '../resolve/lexicon/domains.js';
import { isStopWord } from '../text/stop-words.js';
import { stem } from '../text/stem.js';
import { words } from '../text/words.js';

/** How many of the signalled domain's words are added. */
const DOMAIN_WORDS = 3;

const GENERIC = new Set([
  'mcp',
  'server',
  'servers',
  'tool',
  'tools',
  'api',
  'app',
  'data',
  'info',
  'item',
  'items',
  'thing',
  'object',
  'objects',
  'value',
  'values',
  'new',
  'all',
  'one',
  'model',
  'context',
  'protocol',
  'add',
  'get',
  'set',
  'list',
  'create',
  'update',
  'delete',
  'remove',
  'read',
  'write',
  'edit',
  'fetch',
  'find',
  'search',
  'run',
  'call',
  'make',
  'use',
  'show',
  'open',
  'close',
  'check',
  'do',
  'send',
  'put',
  'post',
  'patch',
  'by',
  'todo',
  'say',
  'sentence',
  'does',
  'power',
]);

export interface KeywordSources {
  name: string;
  description?: string;
  toolNames?: readonly string[];
  /** Keywords already written: kept first, never repeated. */
  existing?: readonly string[];
}

function usable(word: string): boolean {
  return word.length > 2 && !/^\d+$/.test(word) && !isStopWord(word) && !GENERIC.has(word);
}

/** Up to `limit` keywords (3 to 20 make a valid spell); fewer when the sources hold fewer telling words. */
export function suggestKeywords(sources: KeywordSources, limit = 8): string[] {
  const existing = [...(sources.existing ?? [])];
  const seen = new Set(existing.map((word) => word.toLowerCase()));
  const counts = new Map<string, number>();
  const order: string[] = [];
  const note = (word: string, weight: number) => {
    if (!usable(word) || seen.has(word)) return;
    if (!counts.has(word)) order.push(word);
    counts.set(word, (counts.get(word) ?? 0) + weight);
  };
  for (const word of words(sources.name)) note(word, 100);
  for (const tool of sources.toolNames ?? []) for (const word of new Set(words(tool))) note(word, 2);
  for (const word of new Set(words(sources.description ?? ''))) note(word, 1);
  const ranked = order
    .map((word, index) => ({ word, index, count: counts.get(word)! }))
    .sort((a, b) => b.count - a.count || a.index - b.index)
    .map((entry) => entry.word);
  const declared = [...words(sources.name), ...(sources.toolNames ?? []).flatMap((tool) => words(tool))];
  const have = new Set([...existing, ...ranked].map((word) => stem(word.toLowerCase())));
  const domain = domainWords(declared).filter((word) => usable(word) && !have.has(stem(word)));
  const room = Math.max(limit, existing.length) - existing.length;
  const fromDomain = domain.slice(0, Math.min(DOMAIN_WORDS, Math.max(0, room - Math.min(ranked.length, 3))));
  return [...existing, ...ranked.slice(0, room - fromDomain.length), ...fromDomain];
}

/** The first words of the one domain the words signal most, by two different words or more; none when two domains tie. */
function domainWords(declared: string[]): string[] {
  const tags = [...domainTags(declared.map(stem))].sort((a, b) => b[1] - a[1]);
  const [top, second] = tags;
  if (!top || top[1] < 2 || (second && second[1] === top[1])) return [];
  const seen = new Set<string>();
  return DOMAINS[top[0].slice(1)]!.split(' ').filter((word) => !seen.has(stem(word)) && seen.add(stem(word)));
}
