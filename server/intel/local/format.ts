/** Small text helpers for summaries: clipping, counts, sizes and lists that fit a budget. */

export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(1, max - 1)).trimEnd()}…`;
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? word : many}`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** `a 3, b 2, c 1` for the most frequent values. */
export function topCounts(counts: Map<string, number>, limit: number, valueMax = 40): string {
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, limit)
    .map(([value, n]) => `${clip(value, valueMax) || '(empty)'} ${n}`)
    .join(', ');
}

/** Joins items until `max` characters, then says how many were left out. */
export function joinWithin(items: string[], max: number, separator = ', '): string {
  let out = '';
  let used = 0;
  for (const item of items) {
    const next = out ? `${out}${separator}${item}` : item;
    const rest = items.length - used - 1;
    const suffix = rest > 0 ? `${separator}… +${rest} more` : '';
    if (next.length + suffix.length > max && out) return `${out}${separator}… +${items.length - used} more`;
    out = next;
    used++;
  }
  return out;
}
