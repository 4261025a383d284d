/** Worker thread for the tokenizer: building o200k_base and encoding large texts stay off the gateway's event loop. */
import { parentPort } from 'node:worker_threads';
import { countTokens, headWithin, loadEncoder } from './tokenizer-core.js';

/**
 * `count` carries its texts joined, with each one's length (UTF-16 units), and is answered with a
 * count per text: one string and two transferred buffers instead of a cloned string and number per
 * text (a batch holds up to 1,000 of them).
 */
export type TokenRequestBody =
  { op: 'count'; joined: string; lengths: Uint32Array } | { op: 'head'; text: string; maxTokens: number };
export type TokenRequest = TokenRequestBody & { id: number };
export type TokenResponse = {
  id: number;
  counts?: Uint32Array;
  head?: { text: string; tokens: number };
  error?: string;
};

parentPort?.on('message', (request: TokenRequest) => {
  let response: TokenResponse;
  try {
    response =
      request.op === 'count'
        ? { id: request.id, counts: countEach(request.joined, request.lengths) }
        : { id: request.id, head: headWithin(request.text, request.maxTokens) };
  } catch (error) {
    response = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(response, response.counts ? [response.counts.buffer as ArrayBuffer] : []);
});

/** The tokens of each text `joined` holds, cut by `lengths`. */
function countEach(joined: string, lengths: Uint32Array): Uint32Array {
  const counts = new Uint32Array(lengths.length);
  let at = 0;
  for (let i = 0; i < lengths.length; i++) {
    const end = at + lengths[i]!;
    counts[i] = countTokens(joined.slice(at, end));
    at = end;
  }
  if (at !== joined.length) throw new Error(`token worker: the lengths cover ${at} of ${joined.length} characters`);
  return counts;
}

// Build the encoder at once: the first request should not pay for it.
loadEncoder();
