/**
 * Keywords for a spell, from what is known of its server: its name, its tool names, its description.
 * A keyword should name what the power is about: stop words, words any MCP server could claim
 * ("mcp", "server", "tools") and the verbs every tool list repeats ("add", "get", "list") are left
 * out; the words that recur across the tool names come first.
 */
import { isStopWord, words } from '../resolve/text.js';

const GENERIC = new Set([
  'mcp', 'server', 'servers', 'tool', 'tools', 'api', 'app', 'data', 'info', 'item', 'items', 'thing', 'object', 'objects', 'value', 'values', 'new', 'all', 'one', 'model', 'context', 'protocol',
  'add', 'get', 'set', 'list', 'create', 'update', 'delete', 'remove', 'read', 'write', 'edit', 'fetch', 'find', 'search', 'run', 'call', 'make', 'use', 'show', 'open', 'close', 'check', 'do', 'send', 'put', 'post', 'patch', 'by', 'todo', 'say', 'sentence', 'does', 'power',
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
  const ranked = order.map((word, index) => ({ word, index, count: counts.get(word)! })).sort((a, b) => b.count - a.count || a.index - b.index);
  return [...existing, ...ranked.map((entry) => entry.word)].slice(0, Math.max(limit, existing.length));
}
