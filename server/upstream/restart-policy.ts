export type StartGate =
  | { open: true }
  | { open: false; gaveUp: true; attempts: number }
  | { open: false; gaveUp: false; retryInMs: number; attempt: number; maxAttempts: number };

/**
 * When a power's server may be started again after it crashed or failed to start: after an
 * exponential backoff, at most `maxAttempts` times in a row. The same gate holds for the
 * background restart and for a call that finds the power down, so no call relaunches a failing
 * server early.
 */
export class RestartPolicy {
  private attempts = 0;
  private notBefore = 0;
  private gaveUp = false;

  constructor(
    private readonly options: { maxAttempts: number; baseDelayMs: number },
    private readonly now: () => number = Date.now,
  ) {}

  /** Records a crash or a failed start; returns the delay before the next try, or undefined once given up. */
  failed(): number | undefined {
    if (this.attempts >= this.options.maxAttempts) {
      this.gaveUp = true;
      return undefined;
    }
    this.attempts += 1;
    const delay = backoffDelay(this.attempts, this.options.baseDelayMs);
    this.notBefore = this.now() + delay;
    return delay;
  }

  gate(): StartGate {
    if (this.gaveUp) return { open: false, gaveUp: true, attempts: this.attempts };
    const wait = this.notBefore - this.now();
    if (wait > 0)
      return {
        open: false,
        gaveUp: false,
        retryInMs: wait,
        attempt: this.attempts,
        maxAttempts: this.options.maxAttempts,
      };
    return { open: true };
  }

  /** The server ran long enough to count as healthy again. */
  recovered(): void {
    this.attempts = 0;
    this.notBefore = 0;
    this.gaveUp = false;
  }

  /** An explicit activation lifts a give-up (a new round of attempts), never a backoff in progress. */
  liftGiveUp(): void {
    if (!this.gaveUp) return;
    this.gaveUp = false;
    this.attempts = 0;
    this.notBefore = 0;
  }
}

/** Exponential backoff with a cap: 1 s, 2 s, 4 s, ... for base 1000 ms. */
export function backoffDelay(attempt: number, baseMs: number, capMs = 30_000): number {
  return Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
}
