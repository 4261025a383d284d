import type { PowerDefinition } from '../powers/types.js';
import { errorMessage, logger } from '../log.js';
import { commandExists } from '../ranking/availability.js';
import { lookupFor } from '../upstream/command-lookup.js';

const log = logger('discovery');

/**
 * Learns the tools of powers that were never started, one at a time in the background, so the
 * resolver can rank them. Nothing waits on it: a request never blocks on discovery.
 */
export class Discovery {
  private readonly queue: PowerDefinition[] = [];
  private running?: Promise<void>;

  constructor(private readonly discover: (power: PowerDefinition) => Promise<void>) {}

  enqueue(power: PowerDefinition): void {
    // A command that is not installed (a new spell's placeholder) is not run: it would only "crash".
    if (power.server.transport === 'stdio' && !commandExists(power.server.command, lookupFor(power.server.env, power.server.cwd))) {
      log.debug(`'${power.name}' not discovered: its command is not on PATH`);
      return;
    }
    if (this.queue.some((queued) => queued.name === power.name)) return;
    this.queue.push(power);
    this.running ??= this.drain().finally(() => (this.running = undefined));
  }

  /** Resolves once the queue is empty (tests and the CLI wait on it; requests never do). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    for (let power = this.queue.shift(); power; power = this.queue.shift()) {
      try {
        await this.discover(power);
      } catch (error) {
        log.warn(`could not list the tools of '${power.name}': ${errorMessage(error)}`);
      }
    }
  }
}
