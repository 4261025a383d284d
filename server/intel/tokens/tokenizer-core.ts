/**
 * Token counting with a real tokenizer (js-tiktoken, o200k_base). Long texts are encoded in
 * chunks cut at line ends (and hard-cut inside very long lines), which keeps BPE fast on any input;
 * a count can differ from a whole-text encoding by a token or so per chunk boundary.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite';

export const TOKENIZER_NAME = 'o200k_base';
/** The bundle writes the ranks (2.3 MB) once, here, beside main.js and token-worker.js (client/packaging/bundle.ts). */
export const RANKS_FILE = 'o200k_base.json';
export const RANKS_MODULE = 'js-tiktoken/ranks/o200k_base';
const CHUNK_CHARS = 4_000;

let encoder: Tiktoken | undefined;

/** The encoder, built on first use (building it takes about a second). */
export function loadEncoder(): Tiktoken {
  encoder ??= new Tiktoken(loadRanks());
  return encoder;
}

/** The ranks from the bundle's shared file, else from the package (a checkout's build). */
export function loadRanks(dir = __dirname): TiktokenBPE {
  const shared = path.join(dir, RANKS_FILE);
  if (fs.existsSync(shared)) return JSON.parse(fs.readFileSync(shared, 'utf8')) as TiktokenBPE;
  // A specifier in a variable: esbuild leaves it to run time instead of copying the ranks into each entry point.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ranks = require(RANKS_MODULE) as TiktokenBPE | { default: TiktokenBPE };
  return 'default' in ranks ? ranks.default : ranks;
}

/** The text cut into pieces of at most CHUNK_CHARS, preferring line ends. */
export function chunks(text: string): string[] {
  if (text.length <= CHUNK_CHARS) return [text];
  const out: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + CHUNK_CHARS);
    if (end < text.length) {
      const newline = text.lastIndexOf('\n', end);
      if (newline > start + CHUNK_CHARS / 2) end = newline + 1;
      else {
        const space = text.lastIndexOf(' ', end);
        if (space > start + CHUNK_CHARS / 2) end = space + 1;
      }
    }
    out.push(text.slice(start, end));
    start = end;
  }
  return out;
}

export function countTokens(text: string): number {
  const enc = loadEncoder();
  let total = 0;
  for (const piece of chunks(text)) total += enc.encode(piece, 'all').length;
  return total;
}

/** The longest prefix of `text` (at token granularity) that fits in `maxTokens`, and its count. */
export function headWithin(text: string, maxTokens: number): { text: string; tokens: number } {
  if (maxTokens <= 0) return { text: '', tokens: 0 };
  const enc = loadEncoder();
  let used = 0;
  let out = '';
  for (const piece of chunks(text)) {
    const tokens = enc.encode(piece, 'all');
    if (used + tokens.length <= maxTokens) {
      used += tokens.length;
      out += piece;
      continue;
    }
    const take = maxTokens - used;
    // A token cut in the middle of a multi-byte character decodes to U+FFFD: drop it.
    const partial = enc.decode(tokens.slice(0, take)).replace(/\uFFFD+$/u, '');
    return { text: out + partial, tokens: used + take };
  }
  return { text: out, tokens: used };
}
