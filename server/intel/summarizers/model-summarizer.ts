/** Runs a model with a deadline and checks its reply; shared by the sampling and VS Code LM summarizers. */
import type { SummaryBody } from '../summary.js';
import { parseModelReply } from './prompt.js';

export class SummarizerTimeout extends Error {
  constructor(ms: number) {
    super(`no reply within ${ms} ms`);
  }
}

/** The model's reply parsed; rejects on timeout, abort, a failed request or a bad reply. */
export async function askModel(
  ask: (signal: AbortSignal) => Promise<string>,
  timeoutMs: number,
  outer?: AbortSignal,
): Promise<SummaryBody> {
  if (outer?.aborted) throw new Error('the call was cancelled');
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    const reply = await Promise.race([
      ask(controller.signal),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new SummarizerTimeout(timeoutMs)), timeoutMs);
      }),
      new Promise<never>((_, reject) => {
        onAbort = () => reject(new Error('the call was cancelled'));
        outer?.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
    const parsed = parseModelReply(reply);
    if (parsed instanceof Error) throw parsed;
    return parsed;
  } finally {
    clearTimeout(timer);
    if (onAbort) outer?.removeEventListener('abort', onAbort);
    // Whatever is still running for this summary is no longer wanted.
    controller.abort();
  }
}
