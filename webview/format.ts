/** Numbers in words for the dashboard. No DOM. */

/** 950 -> "950", 12_345 -> "12.3k", 1_234_567 -> "1.23M". */
export function formatTokens(n: number): string {
  const abs = Math.abs(n);
  const trim = (text: string) => (text.includes('.') ? text.replace(/\.?0+$/, '') : text);
  if (abs >= 1_000_000) return `${trim((n / 1_000_000).toFixed(abs >= 10_000_000 ? 1 : 2))}M`;
  if (abs >= 1_000) return `${trim((n / 1_000).toFixed(abs >= 10_000 ? 0 : 2))}k`;
  return String(Math.round(n));
}

/** 0.734 -> "73%"; null -> "–". */
export function formatPercent(x: number | null | undefined): string {
  return x === null || x === undefined ? '–' : `${Math.round(x * 100)}%`;
}

/** Three decimals at most, "–" for none. */
export function formatNumber(x: number | null | undefined, digits = 3): string {
  return x === null || x === undefined ? '–' : String(Math.round(x * 10 ** digits) / 10 ** digits);
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${n} B`;
}

/** Local time of day, with the date when not today. */
export function formatTime(at: number, now = Date.now()): string {
  const date = new Date(at);
  const sameDay = new Date(now).toDateString() === date.toDateString();
  const time = date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  return sameDay ? time : `${date.toLocaleDateString()} ${time}`;
}

/** A round step for about `count` ticks up to `max`: 1, 2, 2.5 or 5 times a power of ten. */
export function niceStep(max: number, count = 4): number {
  if (!(max > 0)) return 1;
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw)!;
  return Math.max(step, 1);
}
