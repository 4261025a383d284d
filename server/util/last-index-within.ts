/**
 * `text.lastIndexOf(search, position)`, but only an occurrence starting at `from` or later: -1 when
 * there is none. `lastIndexOf` alone scans back to the text's start when there is none, so cutting a
 * long line (no newline in megabytes) into windows that way costs time quadratic in its length.
 */
export function lastIndexWithin(text: string, search: string, from: number, position: number): number {
  const start = Math.max(0, from);
  if (position < start) return -1;
  const found = text.slice(start, position + search.length).lastIndexOf(search);
  return found < 0 ? -1 : start + found;
}
