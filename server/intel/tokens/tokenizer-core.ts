/**
 * Token counting with a real tokenizer (js-tiktoken, o200k_base). Long texts are encoded in
 * chunks cut at line ends (and hard-cut inside very long lines), which keeps BPE fast on any input;
 * a count can differ from a whole-text encoding by a token or so per chunk boundary.
 */
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';

export const TOKENIZER_NAME = 'o200k_base';
const CHUNK_CHARS = 4_000;

let encoder: Tiktoken | undefined;

/** The encoder, built on first use (building it takes about a second). */
export function loadEncoder(): Tiktoken {
  encoder ??= new Tiktoken(o200kBase);
  return encoder;
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
