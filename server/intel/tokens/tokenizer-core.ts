/**
 * Token counting with a real tokenizer (js-tiktoken, o200k_base). Long texts are encoded in
 * chunks cut at line ends (and hard-cut inside very long lines), and counted pieces longer than
 * MAX_PIECE_CHARS in slices, which keeps byte-pair encoding fast on any input; a count can differ
 * from a whole-text encoding by a token or so per chunk boundary or slice.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite';
import { lastIndexWithin } from '../../util/bounded-lines.js';

export const TOKENIZER_NAME = 'o200k_base';
/** The bundle writes the ranks (2.3 MB) once, here, beside main.js and token-worker.js (tools/packaging/bundle.ts). */
export const RANKS_FILE = 'o200k_base.json';
export const RANKS_MODULE = 'js-tiktoken/ranks/o200k_base';
const CHUNK_CHARS = 4_000;

let encoder: Tiktoken | undefined;
let ranks: TiktokenBPE | undefined;

/** The encoder, built on first use (building it takes about a second). */
export function loadEncoder(): Tiktoken {
  encoder ??= new Tiktoken((ranks ??= loadRanks()));
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

/**
 * The text cut into pieces of at most CHUNK_CHARS, preferring the end of a line whose next line
 * starts with a visible character other than `/`: no piece of the encoder's pattern spans such a
 * cut, so the count is the whole text's. (A run of whitespace and line breaks is one piece, and so
 * is punctuation with the line breaks and slashes after it: a cut inside either would count it as
 * two.) Else before a single space between visible characters (it starts a piece: one long line
 * of JSON, a tool list, is counted as a whole), else any line end, else after a space.
 */
export function chunks(text: string): string[] {
  if (text.length <= CHUNK_CHARS) return [text];
  const out: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + CHUNK_CHARS);
    if (end < text.length) end = cutBefore(text, start, end);
    out.push(text.slice(start, end));
    start = end;
  }
  return out;
}

/** Where a chunk from `start` ends, at most `end` and past half a chunk (see `chunks`). */
function cutBefore(text: string, start: number, end: number): number {
  const least = start + CHUNK_CHARS / 2;
  // Searches bounded to the chunk's second half: a text of one long line is cut in linear time.
  for (
    let newline = lastIndexWithin(text, '\n', least + 1, end - 1);
    newline > least;
    newline = lastIndexWithin(text, '\n', least + 1, newline - 1)
  ) {
    if (!/[\s/]/.test(text[newline + 1]!)) return newline + 1;
  }
  const newline = lastIndexWithin(text, '\n', least + 1, end - 1);
  if (newline > least) return newline + 1;
  // A single space between two visible characters always starts a piece (" word", " 42", " {"): cut before it.
  for (let at = end - 1; at > least; at--) {
    if (text.charCodeAt(at) === 32 && visible(text.charCodeAt(at - 1)) && visible(text.charCodeAt(at + 1))) return at;
  }
  const space = lastIndexWithin(text, ' ', least + 1, end - 1);
  return space > least ? space + 1 : end;
}

/** Not whitespace (nor past the end): a character that ends or starts a piece beside a single space. */
function visible(code: number): boolean {
  return !Number.isNaN(code) && !/\s/.test(String.fromCharCode(code));
}

export function countTokens(text: string): number {
  counter ??= pieceCounter(loadEncoder(), (ranks ??= loadRanks()));
  let total = 0;
  for (const piece of chunks(text)) total += counter(piece);
  return total;
}

let counter: ((text: string) => number) | undefined;

/** Pieces counted so far (they repeat: words, keys, indentation); emptied when full. */
const MAX_CACHED_PIECES = 20_000;
/**
 * A longer piece (a run of letters or of spaces: a hash, a blob, padding) is counted and encoded in
 * slices of this many characters, off by a token or two per slice. Byte-pair encoding a piece whole
 * costs time quadratic in its length: 4,000 letters took about 4 s; 100 KB of them in slices take
 * 1.5-3 s.
 */
const MAX_PIECE_CHARS = 64;

/**
 * Counts as `encode(text, 'all').length` does, from the ranks' public parts (`pat_str`,
 * `special_tokens`) and `encode` itself: the text is split at special tokens (one token each) and
 * into pieces by the encoder's own pattern, compiled once; a piece that is one token of the ranks
 * counts 1, any other is encoded alone (as `encode` does with each piece; a piece over
 * MAX_PIECE_CHARS in slices), and counts are remembered: this spares `encode`'s per-call set-up.
 */
function pieceCounter(enc: Tiktoken, ranks: TiktokenBPE): (text: string) => number {
  const pieces = new RegExp(ranks.pat_str, 'gu');
  const names = Object.keys(ranks.special_tokens);
  const special =
    names.length > 0
      ? new RegExp(names.map((name) => name.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')).join('|'), 'g')
      : undefined;
  const oneToken = singleTokens(ranks);
  const cached = new Map<string, number>();
  const pieceTokens = (piece: string): number => {
    if (piece.length > MAX_PIECE_CHARS) return longPieceTokens(piece);
    let n = cached.get(piece);
    if (n === undefined) {
      n = oneToken.has(Buffer.from(piece, 'utf8').toString('base64')) ? 1 : enc.encode(piece, 'all').length;
      if (cached.size >= MAX_CACHED_PIECES) cached.clear();
      cached.set(piece, n);
    }
    return n;
  };
  const longPieceTokens = (piece: string): number => slices(piece).reduce((n, slice) => n + pieceTokens(slice), 0);
  const plain = (text: string, from: number, to: number): number => {
    const segment = from === 0 && to === text.length ? text : text.slice(from, to);
    let n = 0;
    pieces.lastIndex = 0;
    for (let match = pieces.exec(segment); match !== null; match = pieces.exec(segment)) {
      n += pieceTokens(match[0]);
      if (match[0].length === 0) pieces.lastIndex += 1;
    }
    return n;
  };
  return (text) => {
    if (!special) return plain(text, 0, text.length);
    let n = 0;
    let start = 0;
    special.lastIndex = 0;
    for (let match = special.exec(text); match !== null; match = special.exec(text)) {
      n += plain(text, start, match.index) + 1;
      start = match.index + match[0].length;
    }
    return n + plain(text, start, text.length);
  };
}

/** The byte strings that are one token, base64 as the ranks' `bpe_ranks` lines list them (`! <first rank> <token> <token> ...`). */
function singleTokens(ranks: TiktokenBPE): Set<string> {
  const tokens = new Set<string>();
  for (const line of ranks.bpe_ranks.split('\n')) {
    const fields = line.split(' ');
    for (let i = 2; i < fields.length; i++) if (fields[i]) tokens.add(fields[i]!);
  }
  return tokens;
}

/** A long piece cut every MAX_PIECE_CHARS characters, never between the two halves of a surrogate pair. */
function slices(piece: string): string[] {
  const out: string[] = [];
  for (let start = 0; start < piece.length;) {
    let end = Math.min(piece.length, start + MAX_PIECE_CHARS);
    if (end < piece.length && /[\uDC00-\uDFFF]/.test(piece[end]!)) end -= 1;
    out.push(piece.slice(start, end));
    start = end;
  }
  return out;
}

let chunkPieces: RegExp | undefined;

/** A chunk's tokens as `encode` gives them, except that a piece over MAX_PIECE_CHARS is encoded in slices. */
function chunkTokens(enc: Tiktoken, chunk: string): number[] {
  const piecePattern = (chunkPieces ??= new RegExp((ranks ??= loadRanks()).pat_str, 'gu'));
  const tokens: number[] = [];
  let at = 0;
  piecePattern.lastIndex = 0;
  for (let match = piecePattern.exec(chunk); match !== null; match = piecePattern.exec(chunk)) {
    if (match[0].length === 0) piecePattern.lastIndex += 1;
    if (match[0].length <= MAX_PIECE_CHARS) continue;
    if (match.index > at) tokens.push(...enc.encode(chunk.slice(at, match.index), 'all'));
    for (const slice of slices(match[0])) tokens.push(...enc.encode(slice, 'all'));
    at = match.index + match[0].length;
  }
  if (at === 0) return enc.encode(chunk, 'all');
  if (at < chunk.length) tokens.push(...enc.encode(chunk.slice(at), 'all'));
  return tokens;
}

/** The longest prefix of `text` (at token granularity) that fits in `maxTokens`, and its count. */
export function headWithin(text: string, maxTokens: number): { text: string; tokens: number } {
  if (maxTokens <= 0) return { text: '', tokens: 0 };
  const enc = loadEncoder();
  let used = 0;
  let out = '';
  for (const piece of chunks(text)) {
    const tokens = chunkTokens(enc, piece);
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
