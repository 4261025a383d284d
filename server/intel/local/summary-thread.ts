/**
 * The local summarizer, in a worker thread when the compiled worker file is there (in this thread
 * otherwise, and for results too small to be worth the copy). A result of megabytes takes seconds
 * to summarize: on the event loop, every other call would wait for it. The worker keeps the
 * process alive only while a request is pending and ends after IDLE_MS without one; a crashed
 * worker is replaced by summarizing in this thread.
 */
import * as path from 'node:path';
import { errorMessage, logger } from '../../log.js';
import { IdleWorker } from '../../util/idle-worker.js';
import { summarizeLocally, type LocalInput, type LocalSummary } from './local-summarizer.js';
import type { SummaryRequest, SummaryResponse } from './summary-worker.js';

const log = logger('intel');
const IDLE_MS = 30_000;
/** Below this (characters), summarizing here costs less than a few milliseconds: no round trip. */
const IN_THREAD_CHARS = 64 * 1024;

export interface LocalSummarizer {
  summarize(input: LocalInput): Promise<LocalSummary>;
  close(): Promise<void>;
}

export class InlineSummarizer implements LocalSummarizer {
  async summarize(input: LocalInput): Promise<LocalSummary> {
    return summarizeLocally(input);
  }
  async close(): Promise<void> {}
}

export class WorkerSummarizer implements LocalSummarizer {
  private readonly thread: IdleWorker<Omit<SummaryRequest, 'id'>, SummaryResponse>;

  constructor(workerFile = path.join(__dirname, 'summary-worker.js')) {
    this.thread = new IdleWorker(workerFile, IDLE_MS, 'summary');
  }

  async summarize(input: LocalInput): Promise<LocalSummary> {
    if (input.text.length >= IN_THREAD_CHARS) {
      try {
        const response = await this.thread.request({ input });
        if (response) {
          if (response.error !== undefined || !response.summary) throw new Error(response.error ?? 'no summary');
          return response.summary;
        }
      } catch (error) {
        log.debug(`summary worker: ${errorMessage(error)}; summarizing in this thread`);
      }
    }
    return summarizeLocally(input);
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}
