import type { Writable } from 'node:stream';

const corked = new WeakSet<Writable>();

function uncork(stream: Writable): void {
  corked.delete(stream);
  stream.uncork();
}

/**
 * Writes `data` to `stream` together with whatever else is written to it before the current
 * callbacks and promise jobs are done: the first write corks the stream and a nextTick (which
 * runs once the promise jobs have drained) uncorks it. Messages answered together then cost one
 * writev and one wake-up of the reader instead of one each; a lone message goes out in the same
 * turn. Returns what `write` returns (false: wait for 'drain').
 */
export function writeCoalesced(stream: Writable, data: string): boolean {
  if (!corked.has(stream)) {
    corked.add(stream);
    stream.cork();
    process.nextTick(uncork, stream);
  }
  return stream.write(data);
}

/** What a line written at once resolves to: one settled promise shared, not one made per message. */
const WRITTEN: Promise<void> = Promise.resolve();

/**
 * Writes `message` as one JSON line with `writeCoalesced`. The promise is settled already when the
 * stream took the line, else it settles once the stream drains or closes; a message JSON cannot
 * hold rejects it.
 */
export function writeJsonLine(stream: Writable, message: unknown): Promise<void> {
  let line: string;
  try {
    line = JSON.stringify(message) + '\n';
  } catch (error) {
    return Promise.reject(error);
  }
  if (writeCoalesced(stream, line)) return WRITTEN;
  return new Promise<void>((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.once('drain', done);
    stream.once('close', done);
  });
}
