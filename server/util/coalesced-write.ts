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
