/**
 * Instruction-like text in a tool description, aimed at the agent rather than describing the tool.
 * A heuristic that informs the user in the review, never a block on its own.
 */
import type { SuspiciousFlag } from '../../protocol/records.js';

export type { SuspiciousFlag } from '../../protocol/records.js';

const RULES: Array<{ kind: SuspiciousFlag['kind']; pattern: RegExp }> = [
  { kind: 'hidden-instruction', pattern: /<\s*\/?\s*(important|system|instructions?|secret|hidden|admin|prompt)\b[^>]*>/i },
  { kind: 'hidden-instruction', pattern: /<!--[\s\S]*?-->|\[\s*\/?INST\s*\]|<\|im_start\|>/i },
  { kind: 'hidden-instruction', pattern: /[\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]|[\u{e0000}-\u{e007f}]/u },
  { kind: 'override', pattern: /\b(ignore|disregard|forget|override)\s+(all\s+|any\s+)?(the\s+)?(previous|prior|earlier|above|other|system)\b[^.\n]{0,40}/i },
  { kind: 'override', pattern: /\byou (must|should) (always|first|now)\b[^.\n]{0,60}/i },
  {
    kind: 'credentials',
    pattern: /(~\/\.|\$HOME\/\.|\/\.)(ssh|aws|gnupg|netrc|npmrc|pypirc|docker|kube|git-credentials|config\/gh|env)\b[^\s]*|\bid_(rsa|ed25519|ecdsa|dsa)\b|\.env\b|\b(private key|api[ _-]?keys?|access tokens?|passwords?|credentials)\b[^.\n]{0,40}/i,
  },
  {
    kind: 'concealment',
    pattern: /\b(do not|don't|never|without)\s+(tell|telling|inform|informing|mention|mentioning|notify|notifying|show|showing|alert|alerting)\s+(it\s+to\s+)?(the\s+)?user\b[^.\n]{0,40}|\b(secretly|silently|covertly)\b[^.\n]{0,40}/i,
  },
];

export function suspiciousFlags(text: string | undefined): SuspiciousFlag[] {
  if (!text) return [];
  const flags: SuspiciousFlag[] = [];
  for (const { kind, pattern } of RULES) {
    const match = pattern.exec(text);
    if (!match) continue;
    const start = Math.max(0, match.index - 20);
    const excerpt = text.slice(start, match.index + match[0].length + 20).replace(/[\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]/g, '\u2423').replace(/\s+/g, ' ').trim();
    if (!flags.some((flag) => flag.kind === kind)) flags.push({ kind, excerpt });
  }
  return flags;
}
