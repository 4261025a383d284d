/**
 * Work kept off an answer's path (a durable write costs an fsync the agent need not wait for),
 * run on the next turn of the event loop, or at once by flush() before the store closes.
 */
export class DeferredWork {
  private readonly pending = new Set<{ work: () => void }>();

  constructor(private readonly onError: (error: unknown) => void) {}

  later(work: () => void): void {
    const job = { work };
    this.pending.add(job);
    setImmediate(() => this.run(job));
  }

  /** Runs everything still waiting; called on shutdown, before the store is closed. */
  flush(): void {
    for (const job of [...this.pending]) this.run(job);
  }

  private run(job: { work: () => void }): void {
    if (!this.pending.delete(job)) return;
    try {
      job.work();
    } catch (error) {
      this.onError(error);
    }
  }
}
