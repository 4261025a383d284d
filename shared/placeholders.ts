/**
 * The placeholders a new spell is written with (New Spell File: the template, or a server whose
 * purpose is not known yet). One source: the extension's writers put them in, the gateway's checker
 * flags them while they are left unchanged, and its loader never hands placeholder steering to the agent.
 */

/** Starts every placeholder, so that it reads as one and the checker finds it. */
export const PLACEHOLDER_MARK = 'TODO:';

/** The template's steering: each line starts with the mark, so that it reads as one and is found. */
export const TEMPLATE_STEERING = [
  `${PLACEHOLDER_MARK} guidance the agent reads with every tool of this power (delete these lines, or replace them):`,
  '- which tool to call first, and which to prefer;',
  '- what to check before a change.',
];

/** Earlier templates and generated spells wrote these as their steering. */
const OLDER_STEERING = [/^Guidance the agent reads with every tool of /i];

export function isPlaceholderSteering(steering: string | undefined): boolean {
  const text = (steering ?? '').trim();
  return text.startsWith(PLACEHOLDER_MARK) || OLDER_STEERING.some((pattern) => pattern.test(text));
}

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
