/**
 * Which results are summarized. Text the agent explicitly asked to read (a file's content, a page:
 * a tool that reads, fetches or gets one named target) comes back whole up to `readWholeTokens`;
 * everything else (listings, trees, search hits, logs, tables, JSON collections, environment
 * dumps: bulk output the agent did not ask for word by word) is summarized from
 * `summaryThresholdTokens`. Both are counted with the accounting's tokenizer (o200k_base).
 */
import type { IntelSettings } from '../config/intel-settings.js';

export type PolicyDecision =
  | { summarize: false; reason: 'small' | 'asked to read' }
  | { summarize: true; reason: 'bulk' | 'longer than the read budget' };

const READ_VERBS = new Set([
  'read',
  'cat',
  'view',
  'open',
  'fetch',
  'get',
  'load',
  'show',
  'download',
  'browse',
  'scrape',
  'navigate',
  'head',
  'tail',
]);
const BULK_WORDS = new Set([
  'list',
  'search',
  'find',
  'query',
  'tree',
  'grep',
  'glob',
  'log',
  'logs',
  'history',
  'graph',
  'env',
  'all',
  'many',
  'stats',
  'info',
  'metadata',
  'links',
  'resources',
]);
/** Arguments that name the one thing to read. */
const TARGET_KEYS = [
  'path',
  'paths',
  'file',
  'files',
  'filename',
  'filePath',
  'file_path',
  'uri',
  'url',
  'href',
  'page',
  'document',
  'name',
];

/** The tool reads, fetches or gets a named file, page or document. */
export function isReadRequest(tool: string, args: Record<string, unknown>): boolean {
  const words = tool
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  if (!words.some((word) => READ_VERBS.has(word)) || words.some((word) => BULK_WORDS.has(word))) return false;
  return TARGET_KEYS.some((key) => {
    const value = args[key];
    return (
      (typeof value === 'string' && value.trim() !== '') ||
      (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string'))
    );
  });
}

/** `tokens` is counted only when `bytes` could be over a limit (a token is at least one byte). */
export function decide(
  settings: Pick<IntelSettings, 'summaryThresholdTokens' | 'readWholeTokens'>,
  readRequest: boolean,
  tokens: number,
): PolicyDecision {
  if (readRequest)
    return tokens <= settings.readWholeTokens
      ? { summarize: false, reason: 'asked to read' }
      : { summarize: true, reason: 'longer than the read budget' };
  return tokens < settings.summaryThresholdTokens
    ? { summarize: false, reason: 'small' }
    : { summarize: true, reason: 'bulk' };
}
