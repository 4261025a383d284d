/**
 * The local summarizer, in a worker thread when the compiled worker file is there (in this thread
 * otherwise, and for results too small to be worth the copy). A result of megabytes takes seconds
 * to summarize: on the event loop, every other call would wait for it. The worker keeps the
 * process alive only while a request is pending and ends after IDLE_MS without one; a crashed
 * worker is replaced by summarizing in this thread.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { errorMessage, logger } from '../../log.js';
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
  private worker: Worker | undefined;
  private broken = false;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (response: SummaryResponse) => void; reject: (error: Error) => void }>();
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly workerFile = path.join(__dirname, 'summary-worker.js')) {}

  async summarize(input: LocalInput): Promise<LocalSummary> {
    const worker = input.text.length < IN_THREAD_CHARS ? undefined : this.ensureWorker();
    if (!worker) return summarizeLocally(input);
    const id = this.nextId++;
    try {
      const response = await new Promise<SummaryResponse>((resolve, reject) => {
        this.pending.set(id, { resolve, reject });
        clearTimeout(this.idleTimer);
        worker.ref();
        worker.postMessage({ id, input } satisfies SummaryRequest);
      });
      if (response.error !== undefined || !response.summary) throw new Error(response.error ?? 'no summary');
      return response.summary;
    } catch (error) {
      log.debug(`summary worker: ${errorMessage(error)}; summarizing in this thread`);
      return summarizeLocally(input);
    }
  }

  async close(): Promise<void> {
    this.broken = true;
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    this.worker = undefined;
    for (const waiter of this.pending.values()) waiter.reject(new Error('summarizer closed'));
    this.pending.clear();
    if (worker) await worker.terminate();
  }

  private ensureWorker(): Worker | undefined {
    if (this.worker || this.broken) return this.worker;
    if (!fs.existsSync(this.workerFile)) {
      this.broken = true;
      return undefined;
    }
    const worker = new Worker(this.workerFile);
    worker.unref();
    worker.on('message', (response: SummaryResponse) => {
      const waiter = this.pending.get(response.id);
      this.pending.delete(response.id);
      if (this.pending.size === 0) {
        worker.unref();
        this.idleTimer = setTimeout(() => void this.endIdle(worker), IDLE_MS);
        this.idleTimer.unref();
      }
      waiter?.resolve(response);
    });
    const fail = (error: Error) => {
      if (this.worker !== worker) return;
      this.broken = true;
      this.worker = undefined;
      for (const waiter of this.pending.values()) waiter.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`summary worker exited (${code})`)));
    this.worker = worker;
    return worker;
  }

  private async endIdle(worker: Worker): Promise<void> {
    if (this.worker !== worker || this.pending.size > 0) return;
    this.worker = undefined;
    await worker.terminate();
  }
}
