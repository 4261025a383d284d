/** Small bounded waits and outcome checks shared by the tools/call lane tests. */
import assert from 'node:assert/strict';

export const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves true once `signal` aborts, false when it has not within `ms`. */
export function abortedWithin(signal: AbortSignal, ms: number): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve(true)), { once: true });
  });
}

/** The error a promise rejects with (the test fails when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail('resolved where a rejection was expected');
}

/** Waits (at most 1 s) until `list` holds `count` entries, and fails when it does not. */
export async function reached(list: readonly unknown[], count: number, what: string): Promise<void> {
  for (let waited = 0; list.length < count && waited < 1000; waited += 5) await sleep(5);
  assert.equal(list.length, count, what);
}
