/**
 * The steering a new spell's template is written with, and how a left-over one is recognized: the
 * spell checker flags it, the loader never hands it to the agent. Shared by the extension (which
 * writes templates) and the gateway. No imports.
 */

/** The template's steering: each line starts with the mark, so that it reads as one and is found. */
export const TEMPLATE_STEERING = [
  'TODO: guidance the agent reads with every tool of this power (delete these lines, or replace them):',
  '- which tool to call first, and which to prefer;',
  '- what to check before a change.',
];

/** Earlier templates and generated spells wrote these as their steering. */
const OLDER_STEERING = [/^Guidance the agent reads with every tool of /i];

export function isPlaceholderSteering(steering: string | undefined): boolean {
  const text = (steering ?? '').trim();
  return text.startsWith('TODO:') || OLDER_STEERING.some((pattern) => pattern.test(text));
}
