/**
 * The local summarizer: offline, deterministic, fast. JSON gets a structure-aware summary
 * (json-summary.ts); text is recognised as a directory listing, table, log, HTML, Markdown or
 * source file, and otherwise summarized by its best sentences. Every summary keeps the result's
 * identifiers compactly, within a budget that grows with the result's size.
 */
import type { SummaryBody } from '../summary.js';
import { languageOf, summarizeCode } from './code.js';
import { detectDelimiter, summarizeTable } from './csv.js';
import { estimateTokens } from './estimate.js';
import { Findings, NAMES_SHARE, type Budget } from './findings.js';
import { clip, formatBytes, plural } from './format.js';
import { summarizeJson } from './json-summary.js';
import { isListing, summarizeListing } from './listing.js';
import { isLog, summarizeLog } from './logs.js';
import { isHtml, isMarkdown, summarizeHtml, summarizeMarkdown } from './markup.js';
import { rankSentences } from './sentences.js';
import { textIdentifiers } from './text-ids.js';

export interface LocalInput {
  text: string;
  tool?: string;
  args?: Record<string, unknown>;
}

export type TextKind = 'json' | 'html' | 'listing' | 'code' | 'log' | 'table' | 'markdown' | 'text';

/**
 * How much summary a result gets, from its estimated tokens: about a seventh of them, less the fixed
 * cost of the metadata and the how-to-get-the-rest line, so that from 5 KB a summary stays under a
 * fifth of the result. Small results (no size target) keep room for their ids.
 */
export function budgetFor(chars: number, rawTokens: number): Budget & { maxFindings: number } {
  let bodyTokens = Math.min(2_400, Math.max(110, Math.round(0.14 * rawTokens) - 90));
  if (chars < 5_000) bodyTokens = Math.max(bodyTokens, 300);
  const maxFindings = bodyTokens < 250 ? 3 : bodyTokens < 500 ? 4 : 5;
  const findingChars = Math.max(110, Math.min(280, Math.round(((bodyTokens * 0.5) / maxFindings) * 4)));
  return { findingChars, bodyTokens, maxFindings, rawTokens };
}

/**
 * The most of a result the local summarizer reads (characters). Its time grows with its input (about
 * 65 ms for 116 KB, seconds for megabytes): a larger result is summarized from its start, said so in
 * the summary, and kept whole in its artifact (read_artifact, get_artifact_context and search read all of it).
 */
export const SUMMARY_INPUT_CHARS = 1_000_000;

export type LocalSummary = SummaryBody & { kind: TextKind };

export function summarizeLocally(input: LocalInput): LocalSummary {
  const whole = input.text;
  const text = whole.length > SUMMARY_INPUT_CHARS ? whole.slice(0, SUMMARY_INPUT_CHARS) : whole;
  const out = new Findings(budgetFor(whole.length, estimateTokens(text) * (whole.length / text.length)));
  if (text !== whole)
    out.finding(
      `Summarized from the first ${formatBytes(text.length)} of its ${formatBytes(whole.length)} of text; ` +
        `the whole result is in the artifact.`,
    );
  const json = parseJson(text);
  let kind: TextKind;
  if (json.ok) {
    kind = 'json';
    summarizeJson(json.value, out);
  } else {
    kind = summarizeText(text, pathArg(input.args), out);
  }
  padFindings(text, kind, out);
  return { ...out.build(), kind };
}

function summarizeText(text: string, path: string | undefined, out: Findings): TextKind {
  const lines = text.split(/\r?\n/);
  if (isHtml(text)) {
    summarizeHtml(text, out);
    return 'html';
  }
  if (isListing(lines)) {
    out.widen(NAMES_SHARE);
    summarizeListing(lines, out);
    return 'listing';
  }
  const declared = path ? languageOf(path, '') : undefined;
  if (declared && declared !== 'code') {
    summarizeCode(lines, declared, path, out);
    addTextIds(text, out, 4);
    return 'code';
  }
  if (isLog(lines)) {
    summarizeLog(lines, out);
    return 'log';
  }
  const delimiter = detectDelimiter(lines);
  if (delimiter && !isMarkdown(lines.slice(0, 50))) {
    summarizeTable(lines, delimiter, out);
    return 'table';
  }
  if (isMarkdown(lines)) {
    summarizeMarkdown(text, lines, out);
    return 'markdown';
  }
  const language = languageOf(undefined, text);
  if (language) {
    summarizeCode(lines, language, path, out);
    addTextIds(text, out, 4);
    return 'code';
  }
  const words = text.match(/\S+/g)?.length ?? 0;
  out.finding(`Text of ${plural(lines.length, 'line')} and ${plural(words, 'word')}.`);
  for (const sentence of rankSentences(text, 4)) out.finding(sentence.text);
  addTextIds(text, out, 1);
  return 'text';
}

function addTextIds(text: string, out: Findings, priority: number): void {
  for (const [kind, values] of textIdentifiers(text)) out.identifiers(kind, values, priority);
}

/** Every summary has at least three findings. */
function padFindings(text: string, kind: TextKind, out: Findings): void {
  const size =
    `${kind === 'json' ? 'JSON' : 'Text'} result of ${formatBytes(Buffer.byteLength(text))} ` +
    `(${plural(text.split('\n').length, 'line')}).`;
  const begins = `Begins: ${clip(text, 140)}`;
  const ends = `Ends: ${clip(
    text
      .slice(-400)
      .split('\n')
      .filter((l) => l.trim())
      .slice(-2)
      .join(' | '),
    140,
  )}`;
  const fillers = kind === 'text' ? [ends, begins] : [size, begins, ends];
  for (const filler of fillers) if (out.count < 3) out.finding(filler);
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  const trimmed = text.trim();
  const first = trimmed[0];
  if (first !== '{' && first !== '[') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(trimmed) };
  } catch {
    // JSON Lines: one object per line.
    const lines = trimmed.split(/\r?\n/).filter((l) => l.trim());
    if (lines.length >= 3 && lines.every((l) => /^\s*[{[].*[}\]]\s*$/.test(l))) {
      try {
        return { ok: true, value: lines.map((l) => JSON.parse(l)) };
      } catch {
        return { ok: false };
      }
    }
    return { ok: false };
  }
}

function pathArg(args: Record<string, unknown> | undefined): string | undefined {
  if (!args) return undefined;
  for (const key of ['path', 'file', 'filename', 'filePath', 'file_path', 'uri'])
    if (typeof args[key] === 'string') return args[key] as string;
  return undefined;
}
