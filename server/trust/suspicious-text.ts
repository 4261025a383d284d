/**
 * Instruction-like text in a tool description, aimed at the agent rather than describing the tool.
 * A heuristic that informs the user in the review, never a block on its own.
 */
import type { SuspiciousFlag } from '../../protocol/records.js';

const RULES: Array<{ kind: SuspiciousFlag['kind']; pattern: RegExp }> = [
  {
    kind: 'hidden-instruction',
    pattern: /<\s*\/?\s*(important|system|instructions?|secret|hidden|admin|prompt)\b[^>]*>/i,
  },
  { kind: 'hidden-instruction', pattern: /<!--[\s\S]*?-->|\[\s*\/?INST\s*\]|<\|im_start\|>/i },
  { kind: 'hidden-instruction', pattern: /[\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]|[\u{e0000}-\u{e007f}]/u },
  {
    kind: 'override',
    pattern:
      /\b(ignore|disregard|forget|override)\s+(all\s+|any\s+)?(the\s+)?(previous|prior|earlier|above|other|system)\b[^.\n]{0,40}/i,
  },
  { kind: 'override', pattern: /\byou (must|should) (always|first|now)\b[^.\n]{0,60}/i },
  {
    kind: 'credentials',
    pattern:
      /(~\/\.|\$HOME\/\.|\/\.)(ssh|aws|gnupg|netrc|npmrc|pypirc|docker|kube|git-credentials|config\/gh|env)\b[^\s]*|\bid_(rsa|ed25519|ecdsa|dsa)\b|\.env\b|\b(private key|api[ _-]?keys?|access tokens?|passwords?|credentials)\b[^.\n]{0,40}/i,
  },
  {
    kind: 'concealment',
    pattern:
      /\b(do not|don't|never|without)\s+(tell|telling|inform|informing|mention|mentioning|notify|notifying|show|showing|alert|alerting)\s+(it\s+to\s+)?(the\s+)?user\b[^.\n]{0,40}|\b(secretly|silently|covertly)\b[^.\n]{0,40}/i,
  },
];

export function suspiciousFlags(text: string | undefined): SuspiciousFlag[] {
  if (!text) return [];
  const flags: SuspiciousFlag[] = [];
  for (const { kind, pattern } of RULES) {
    const match = pattern.exec(text);
    if (!match) continue;
    if (!flags.some((flag) => flag.kind === kind))
      flags.push({ kind, excerpt: excerptAround(text, match.index, match.index + match[0].length) });
  }
  return flags;
}

/** Context shown on each side of a match, in characters, before widening to whole words. */
const CONTEXT = 20;
/** The most a word at either edge may widen the excerpt by (a long token is cut, with an ellipsis). */
const MAX_WORD = 24;
const INVISIBLE = /[\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]/g;
const wordChar = (text: string, at: number) => at >= 0 && at < text.length && /[\p{L}\p{N}_'-]/u.test(text[at]!);

/**
 * The match with about CONTEXT characters on each side, widened to whole words at both edges (a
 * word longer than MAX_WORD is cut there), with "…" where the description goes on; invisible
 * characters shown as ␣.
 */
export function excerptAround(text: string, from: number, to: number): string {
  let start = Math.max(0, from - CONTEXT);
  for (
    let widened = 0;
    start > 0 && wordChar(text, start - 1) && wordChar(text, start) && widened < MAX_WORD;
    widened++
  )
    start--;
  let end = Math.min(text.length, to + CONTEXT);
  for (
    let widened = 0;
    end < text.length && wordChar(text, end) && wordChar(text, end - 1) && widened < MAX_WORD;
    widened++
  )
    end++;
  const body = text.slice(start, end).replace(INVISIBLE, '\u2423').replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`;
}
