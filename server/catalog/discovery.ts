import type { PowerDefinition } from '../powers/types.js';
import { errorMessage, logger } from '../log.js';
import { commandExists, lookupFor } from '../util/command-lookup.js';

const log = logger('discovery');

/**
 * Learns the tools of powers that were never started, in the background, a few at a time (each
 * listing mostly waits on a child process starting), so the resolver can rank them. A resolve may
 * wait for it a short while (`settled`); nothing waits on it longer.
 */
export class Discovery {
  private readonly queue: PowerDefinition[] = [];
  private readonly inFlight = new Set<string>();
  /** Each launch definition is listed once in the background: a failed one is not tried again by every resolve that asks. */
  private readonly tried = new Set<string>();
  private workers = 0;
  private drained?: { promise: Promise<void>; resolve: () => void };
  /** Told each time a listing ends (`settled` waits on them). */
  private finished = new Set<() => void>();

  constructor(
    private readonly discover: (power: PowerDefinition) => Promise<void>,
    private readonly concurrency: () => number = () => 1,
  ) {}

  enqueue(power: PowerDefinition): void {
    const key = `${power.name}\u0000${power.serverHash}`;
    if (this.tried.has(key) || this.inFlight.has(power.name) || this.queue.some((queued) => queued.name === power.name))
      return;
    // A command that is not installed (a new spell's placeholder) is not run: it would only "crash".
    if (
      power.server.transport === 'stdio' &&
      !commandExists(power.server.command, lookupFor(power.server.env, power.server.cwd))
    ) {
      log.debug(`'${power.name}' not discovered: its command is not on PATH`);
      return;
    }
    this.tried.add(key);
    this.queue.push(power);
    while (this.workers < Math.max(1, this.concurrency()) && this.workers < this.queue.length + this.inFlight.size) {
      this.workers += 1;
      void this.work();
    }
  }

  /** The powers queued or being listed now. */
  pending(): string[] {
    return [...this.inFlight, ...this.queue.map((power) => power.name)];
  }

  /** Resolves once the queue is empty (tests and the CLI wait on it). */
  async idle(): Promise<void> {
    while (this.drained) await this.drained.promise;
  }

  /**
   * Waits until no power `waitingFor` names is pending (default: the queue is empty) or `ms` have
   * passed, whichever is first; resolves to the powers still pending then that it names (none: the
   * catalog is complete).
   */
  async settled(ms: number, waitingFor: (name: string) => boolean = () => true): Promise<string[]> {
    const waiting = () => this.pending().filter(waitingFor);
    if (ms <= 0 || waiting().length === 0) return waiting();
    let timer: NodeJS.Timeout | undefined;
    let timedOut = false;
    const deadline = new Promise<void>((resolve) => (timer = setTimeout(() => ((timedOut = true), resolve()), ms)));
    try {
      while (!timedOut && waiting().length > 0)
        await Promise.race([deadline, new Promise<void>((resolve) => this.finished.add(resolve))]);
    } finally {
      clearTimeout(timer);
    }
    return waiting();
  }

  private async work(): Promise<void> {
    if (!this.drained) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.drained = { promise, resolve };
    }
    try {
      for (let power = this.queue.shift(); power; power = this.queue.shift()) {
        this.inFlight.add(power.name);
        try {
          await this.discover(power);
        } catch (error) {
          log.warn(`could not list the tools of '${power.name}': ${errorMessage(error)}`);
        } finally {
          this.inFlight.delete(power.name);
          const waiters = this.finished;
          this.finished = new Set();
          for (const resolve of waiters) resolve();
        }
      }
    } finally {
      this.workers -= 1;
      if (this.workers === 0 && this.queue.length === 0) {
        const drained = this.drained;
        this.drained = undefined;
        drained?.resolve();
      }
    }
  }
}
