/** Exponential backoff with a cap: 1 s, 2 s, 4 s, ... for base 1000 ms. */
export function backoffDelay(attempt: number, baseMs: number, capMs = 30_000): number {
  return Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
}
