/** The keywords a new spell is written with (protocol.spellKeywords: the extension asks for them). */
import type { SpellKeywordsParams } from '../../protocol/extension-methods.js';
import { PLACEHOLDER_KEYWORDS } from '../../shared/placeholders.js';
import { suggestKeywords } from './keyword-suggestions.js';

/**
 * 3 to 20 keywords from the server's key, its npm package, its tool names and description (telling
 * words only: see keyword-suggestions.ts); the template's placeholders fill up to 3, and are flagged.
 */
export function keywordsFor({ key, toolNames, description, packageName }: SpellKeywordsParams): string[] {
  const name = [key, packageName ?? ''].join(' ');
  // The description's words only when the name and tools tell too little: prose brings filler ("between", "existing", "entire").
  const telling = suggestKeywords({ name, toolNames }, 12);
  const words = telling.length >= 3 ? telling : suggestKeywords({ name, toolNames, description }, 12);
  return [...words, ...PLACEHOLDER_KEYWORDS.slice(0, Math.max(0, 3 - words.length))].slice(0, 20);
}

/** The request's params as sent, checked: a wrong shape is refused with what is wrong. */
export function spellKeywordsParams(params: unknown): SpellKeywordsParams {
  const p = (typeof params === 'object' && params !== null ? params : {}) as Record<string, unknown>;
  if (typeof p.key !== 'string')
    throw new Error("spellKeywords: key must be a string (the server's key in its mcp.json).");
  if (!Array.isArray(p.toolNames) || !p.toolNames.every((name) => typeof name === 'string'))
    throw new Error('spellKeywords: toolNames must be a list of strings.');
  for (const field of ['description', 'packageName'] as const)
    if (p[field] !== undefined && typeof p[field] !== 'string')
      throw new Error(`spellKeywords: ${field} must be a string when given.`);
  return {
    key: p.key,
    toolNames: p.toolNames,
    ...(typeof p.description === 'string' ? { description: p.description } : {}),
    ...(typeof p.packageName === 'string' ? { packageName: p.packageName } : {}),
  };
}
