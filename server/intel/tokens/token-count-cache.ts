/**
 * Token counts of long texts counted before (the tools/list comparison: the gateway's list and every
 * known power's tools), kept in `token-counts.json` in the data dir by the SHA-256 of the
 * tokenizer's name and the text. Loading the o200k_base encoder costs about 0.8 s of CPU; a
 * `grimoire stats` or a dashboard refresh whose lists did not change then needs no encoder at all.
 * The file is a cache: one that is missing, unreadable, too large or not what this module writes is
 * ignored (and replaced on the next count); a write that fails leaves the counts uncached.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { errorMessage, logger } from '../../log.js';
import { readTextFile } from '../../../shared/safe-read.js';
import type { Tokenizer } from './tokenizer.js';

const log = logger('intel');

export const TOKEN_COUNTS_FILE = 'token-counts.json';
/** How texts are cut for counting (tokenizer-core.ts `chunks`): a count made another way is counted again. */
const COUNTING = 'chunks-2';
/** The most counts kept: the newest, by when they were counted. */
const MAX_ENTRIES = 64;
const MAX_FILE_BYTES = 64 * 1024;

interface Entry {
  tokens: number;
  at: number;
}

/** Counts `texts` with `tokenizer`, taking the ones counted before from the data dir's cache. */
export async function cachedTokenCounts(
  dataDir: string,
  tokenizer: Tokenizer,
  texts: string[],
  now = Date.now(),
): Promise<number[]> {
  const file = path.join(dataDir, TOKEN_COUNTS_FILE);
  const entries = readEntries(file);
  const keys = texts.map((text) =>
    createHash('sha256').update(tokenizer.name).update('\0').update(COUNTING).update('\0').update(text).digest('hex'),
  );
  const missing = keys.map((key, i) => (entries.has(key) ? -1 : i)).filter((i) => i >= 0);
  if (missing.length > 0) {
    const counted = await tokenizer.count(missing.map((i) => texts[i]!));
    missing.forEach((i, n) => entries.set(keys[i]!, { tokens: counted[n]!, at: now }));
    writeEntries(file, entries);
  }
  return keys.map((key) => entries.get(key)!.tokens);
}

function readEntries(file: string): Map<string, Entry> {
  const entries = new Map<string, Entry>();
  const read = readTextFile(file, { fileBytes: MAX_FILE_BYTES, fileReadTimeoutMs: 1000 });
  if (!read.ok) return entries;
  try {
    const parsed: unknown = JSON.parse(read.text);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return entries;
    for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
      if (/^[0-9a-f]{64}$/.test(key) && isEntry(value)) entries.set(key, value);
    }
  } catch {
    // not JSON: counted again and rewritten
  }
  return entries;
}

function isEntry(value: unknown): value is Entry {
  const entry = value as Partial<Entry> | null;
  return (
    entry !== null &&
    typeof entry === 'object' &&
    Number.isSafeInteger(entry.tokens) &&
    entry.tokens! >= 0 &&
    Number.isFinite(entry.at)
  );
}

/** The newest MAX_ENTRIES, written to a temporary file and renamed over the cache (a reader never sees half a file). */
function writeEntries(file: string, entries: Map<string, Entry>): void {
  const kept = [...entries].sort(([, a], [, b]) => b.at - a.at).slice(0, MAX_ENTRIES);
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(temporary, JSON.stringify(Object.fromEntries(kept)) + '\n');
    fs.renameSync(temporary, file);
  } catch (error) {
    log.debug(`token counts not cached in ${file}: ${errorMessage(error)}`);
    fs.rmSync(temporary, { force: true });
  }
}
