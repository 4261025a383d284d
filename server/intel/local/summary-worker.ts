/** Worker thread for the local summarizer: summarizing a large result stays off the gateway's event loop. */
import { parentPort } from 'node:worker_threads';
import { summarizeLocally, type LocalInput, type LocalSummary } from './local-summarizer.js';

export type SummaryRequest = { id: number; input: LocalInput };
export type SummaryResponse = { id: number; summary?: LocalSummary; error?: string };

parentPort?.on('message', ({ id, input }: SummaryRequest) => {
  let response: SummaryResponse;
  try {
    response = { id, summary: summarizeLocally(input) };
  } catch (error) {
    response = { id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(response);
});
