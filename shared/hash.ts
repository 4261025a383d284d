import { createHash } from 'node:crypto';

/** JSON with object keys sorted and undefined members dropped, so equal values hash the same. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The first `length` hex digits of the SHA-256 of a text, or of its parts in a row (hashed one by one: a
 * large part is not copied into a joined string).
 */
export function shortHash(text: string | readonly string[], length = 16): string {
  const hash = createHash('sha256');
  for (const part of typeof text === 'string' ? [text] : text) hash.update(part);
  return hash.digest('hex').slice(0, length);
}

/** A short hash of any JSON-like value (stable under key order). */
export function valueHash(value: unknown): string {
  return shortHash(stableJson(value));
}
