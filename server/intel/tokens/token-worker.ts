/** Worker thread for the tokenizer: building o200k_base and encoding large texts stay off the gateway's event loop. */
import { parentPort } from 'node:worker_threads';
import { countTokens, headWithin, loadEncoder } from './tokenizer-core.js';

export type TokenRequestBody = { op: 'count'; texts: string[] } | { op: 'head'; text: string; maxTokens: number };
export type TokenRequest = TokenRequestBody & { id: number };
export type TokenResponse = { id: number; counts?: number[]; head?: { text: string; tokens: number }; error?: string };

parentPort?.on('message', (request: TokenRequest) => {
  let response: TokenResponse;
  try {
    response = request.op === 'count' ? { id: request.id, counts: request.texts.map(countTokens) } : { id: request.id, head: headWithin(request.text, request.maxTokens) };
  } catch (error) {
    response = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(response);
});

// Build the encoder at once: the first request should not pay for it.
loadEncoder();
