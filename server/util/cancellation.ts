/**
 * One call's cancellation, as the call path checks and listens to it: a flag and a short list.
 * A session's call follows the SDK's AbortSignal for its request (`following`), and `signal` gives
 * that same signal back (or makes one on first use) to the APIs that take one (the SDK Client,
 * model summarizers).
 */
export class Cancellation {
  private cancelled = false;
  private cancelledWith: unknown = undefined;
  private listeners: Array<(reason: unknown) => void> | undefined;
  private controller: AbortController | undefined;
  private followed: AbortSignal | undefined;
  /** Whether the followed signal has this cancellation's listener: added with the first `onAbort`, not per call. */
  private listening = false;

  /**
   * A cancellation that follows `signal` (a request the SDK's own Server handles); none for none.
   * It reads the signal's state when asked and listens to it only once something listens to it.
   */
  static following(signal: AbortSignal | undefined): Cancellation | undefined {
    if (!signal) return undefined;
    const cancellation = new Cancellation();
    cancellation.followed = signal;
    return cancellation;
  }

  get aborted(): boolean {
    return this.cancelled || this.followed?.aborted === true;
  }

  get reason(): unknown {
    return this.cancelled ? this.cancelledWith : this.followed?.aborted ? this.followed.reason : undefined;
  }

  /** Cancels the call once; without a reason, the reason is the AbortError an AbortController gives. */
  abort(reason: unknown = new DOMException('This operation was aborted', 'AbortError')): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.cancelledWith = reason;
    this.controller?.abort(reason);
    const listeners = this.listeners;
    this.listeners = undefined;
    for (const listener of listeners ?? []) listener(reason);
  }

  /** Calls `listener` with the reason when the call is cancelled (not if it already was); returns what stops that. */
  onAbort(listener: (reason: unknown) => void): () => void {
    if (this.aborted) return () => undefined;
    const followed = this.followed;
    if (followed && !this.listening) {
      this.listening = true;
      followed.addEventListener('abort', () => this.abort(followed.reason), { once: true });
    }
    (this.listeners ??= []).push(listener);
    return () => {
      const at = this.listeners?.indexOf(listener) ?? -1;
      if (at >= 0) this.listeners!.splice(at, 1);
    };
  }

  /** An AbortSignal that aborts with this cancellation (the followed signal itself, if any). */
  get signal(): AbortSignal {
    if (this.followed) return this.followed;
    this.controller ??= new AbortController();
    if (this.aborted && !this.controller.signal.aborted) this.controller.abort(this.reason);
    return this.controller.signal;
  }
}
