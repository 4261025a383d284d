/**
 * The audit trail fails closed: once a call's record could not be committed (a full disk, a
 * read-only folder, an I/O error, PostgreSQL refusing the write), calls are answered with an
 * error that names that cause and where the store is, and no further tool is called while the
 * store stays unwritable. The next call first tries a write of its own (one at a time): an event
 * that says how long recording stopped and how many calls it cost. Once that commits, calls run
 * and are recorded again, without a restart.
 */
import type { CallToolResult } from '../util/mcp-types.js';
import { errorMessage, logger } from '../log.js';

const log = logger('activity');

interface Outage {
  error: unknown;
  since: number;
  /** Calls that ran but whose record was lost (answered with an error). */
  unrecorded: number;
  /** Calls refused before their tool was called. */
  refused: number;
}

export interface RecordingGateDeps {
  /** Where the records go, for the messages: `the data folder <dir>` or `the PostgreSQL database`. */
  where: string;
  /** Writes a notice to the store and resolves once it may be acknowledged; throws or rejects when it cannot be. */
  probe: (detail: string) => Promise<void>;
}

export class RecordingGate {
  private outage: Outage | undefined;
  private probing: Promise<unknown> | undefined;

  constructor(private readonly deps: RecordingGateDeps) {}

  /** Records of `calls` calls could not be committed: the store is unwritable until a probe commits. */
  failed(error: unknown, calls: number): void {
    if (!this.outage) {
      this.outage = { error, since: Date.now(), unrecorded: 0, refused: 0 };
      log.error(
        `the activity log cannot be written in ${this.deps.where}: ${errorMessage(error)}; ` +
          `calls are answered with this error and no tool is called until it can be written again`,
      );
    }
    this.outage.error = error;
    this.outage.unrecorded += calls;
  }

  /**
   * Undefined while the store takes writes (no wait on the common path); during an outage, the
   * refusal to answer with (the tool is not called), or undefined once the probe committed.
   */
  refusal(): Promise<CallToolResult | undefined> | undefined {
    return this.outage ? this.refuseUnlessWritable() : undefined;
  }

  private async refuseUnlessWritable(): Promise<CallToolResult | undefined> {
    const error = await (this.probing ??= this.probe().finally(() => (this.probing = undefined)));
    if (error === undefined || !this.outage) return undefined;
    this.outage.refused += 1;
    return errorResult(
      `Grimoire did not call this tool: its activity log in ${this.deps.where} cannot be written ` +
        `(${errorMessage(error)}), and no call runs unrecorded. ` +
        'Once it can be written again (space freed, made writable), the next call runs.',
    );
  }

  /** The answer of a call that ran but whose record could not be committed. */
  unrecorded(error: unknown, power: string, tool: string): CallToolResult {
    return errorResult(
      `Grimoire could not record this call in its activity log in ${this.deps.where} ` +
        `(${errorMessage(error)}), so its result is withheld. ` +
        `The tool ${power}:${tool} did run. Recording resumes by itself once the store can be written again (space freed, made writable).`,
    );
  }

  /** Resolves with the error that still stands, or undefined once the notice committed (the outage is over). */
  private async probe(): Promise<unknown> {
    const outage = this.outage!;
    const seconds = Math.round((Date.now() - outage.since) / 1000);
    try {
      await this.deps.probe(
        `the activity log could be written again after ${seconds} s (${errorMessage(outage.error)}): ` +
          `${outage.unrecorded} call(s) ran unrecorded (answered with an error), ` +
          `${outage.refused} refused before their tool was called`,
      );
    } catch (error) {
      outage.error = error;
      return error;
    }
    this.outage = undefined;
    log.info(
      `the activity log can be written again in ${this.deps.where}: ` +
        `${outage.unrecorded} call(s) went unrecorded, ${outage.refused} refused`,
    );
    return undefined;
  }
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
