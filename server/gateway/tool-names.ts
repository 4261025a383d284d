import { shortHash } from '../util/hash.js';

export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
const SEPARATOR = '__';
const MAX = 64;

/**
 * The name an active power's tool is exposed under: `<power>__<tool>`, with characters outside
 * `[a-zA-Z0-9_-]` replaced and, when longer than 64, shortened with a hash of the full name so
 * that two long names never collide.
 */
export function exposedToolName(power: string, tool: string): string {
  const full = `${power}${SEPARATOR}${tool.replace(/[^a-zA-Z0-9_-]/g, '_')}`;
  if (full.length <= MAX && full === `${power}${SEPARATOR}${tool}`) return full;
  const suffix = `_${shortHash(`${power}\u0000${tool}`, 8)}`;
  if (full.length <= MAX - suffix.length) return full + suffix;
  return full.slice(0, MAX - suffix.length) + suffix;
}

/** `power:tool` or `power__tool` -> its parts, for names written by hand. */
export function splitQualifiedName(name: string): { power: string; tool: string } | undefined {
  const colon = name.indexOf(':');
  if (colon > 0) return { power: name.slice(0, colon), tool: name.slice(colon + 1) };
  const sep = name.indexOf(SEPARATOR);
  if (sep > 0) return { power: name.slice(0, sep), tool: name.slice(sep + SEPARATOR.length) };
  return undefined;
}
