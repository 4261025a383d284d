/**
 * The placeholders a new spell is written with (New Spell File: the template, or a server whose
 * purpose is not known yet). One source: the writers put them in, the checker flags them while
 * they are left unchanged.
 */
export { isPlaceholderSteering, TEMPLATE_STEERING } from '../../protocol/placeholder-steering.js';

/** Starts every placeholder description, so that it reads as one and the checker finds it. */
export const PLACEHOLDER_MARK = 'TODO:';

export const TEMPLATE_DESCRIPTION = `${PLACEHOLDER_MARK} say in one sentence what this power does.`;

/** A server whose tools are not known yet: its key is named, the rest is to be written. */
export function serverPlaceholderDescription(key: string): string {
  return `${PLACEHOLDER_MARK} say in one sentence what the "${key}" server does (intent resolution matches requests against it).`;
}

export const PLACEHOLDER_KEYWORDS: readonly string[] = ['first-keyword', 'second-keyword', 'third-keyword'];

/** Earlier templates wrote these; they are placeholders too. */
const OLDER_PLACEHOLDERS = [
  /^Say in one sentence what this power does\.?$/i,
  /^Tools of the ".*" MCP server\. Say in one sentence what it does/i,
];

export function isPlaceholderDescription(description: string): boolean {
  const text = description.trim();
  return text.startsWith(PLACEHOLDER_MARK) || OLDER_PLACEHOLDERS.some((pattern) => pattern.test(text));
}
