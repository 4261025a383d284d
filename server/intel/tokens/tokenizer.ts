/**
 * Counts tokens (o200k_base) in a worker thread when the compiled worker file is there, in this
 * thread otherwise (e.g. in a bundle without it). The worker keeps the process alive only while a
 * request is pending, and ends after IDLE_MS without one (its encoder holds about 50 MB; the next
 * request starts a new one); a crashed worker is replaced by the in-thread tokenizer.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { errorMessage, logger } from '../../log.js';
import { countTokens, headWithin, TOKENIZER_NAME } from './tokenizer-core.js';
import type { TokenRequest, TokenRequestBody, TokenResponse } from './token-worker.js';

const log = logger('intel');

export interface Tokenizer {
  readonly name: string;
  count(texts: string[]): Promise<number[]>;
  /** The longest prefix of `text` within `maxTokens` tokens. */
  head(text: string, maxTokens: number): Promise<{ text: string; tokens: number }>;
  close(): Promise<void>;
}

/** A worker with no request for this long is ended. */
export const IDLE_MS = 30_000;

type Pending = { resolve: (response: TokenResponse) => void; reject: (error: Error) => void };

export class WorkerTokenizer implements Tokenizer {
  readonly name = TOKENIZER_NAME;
  private worker: Worker | undefined;
  private broken = false;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly workerFile = path.join(__dirname, 'token-worker.js'),
    private readonly idleMs = IDLE_MS,
  ) {}

  /** Whether a worker thread is running now. */
  get running(): boolean {
    return this.worker !== undefined;
  }

  async count(texts: string[]): Promise<number[]> {
    if (texts.length === 0) return [];
    const lengths = new Uint32Array(texts.length);
    for (let i = 0; i < texts.length; i++) lengths[i] = texts[i]!.length;
    const response = await this.request({ op: 'count', joined: texts.join(''), lengths }, [lengths.buffer]);
    return response?.counts ? Array.from(response.counts) : texts.map(countTokens);
  }

  async head(text: string, maxTokens: number): Promise<{ text: string; tokens: number }> {
    const response = await this.request({ op: 'head', text, maxTokens });
    return response?.head ?? headWithin(text, maxTokens);
  }

  async close(): Promise<void> {
    this.broken = true;
    await this.endWorker();
  }

  private async endWorker(): Promise<void> {
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
    // Only close() can leave requests behind: they are counted in this thread.
    for (const waiter of this.pending.values()) waiter.reject(new Error('tokenizer closed'));
    this.pending.clear();
  }

  /** Undefined means "do it in this thread". */
  private async request(body: TokenRequestBody, transfer: ArrayBuffer[] = []): Promise<TokenResponse | undefined> {
    const worker = this.ensureWorker();
    if (!worker) return undefined;
    const id = this.nextId++;
    try {
      const response = await new Promise<TokenResponse>((resolve, reject) => {
        this.pending.set(id, { resolve, reject });
        clearTimeout(this.idleTimer);
        worker.ref();
        worker.postMessage({ ...body, id } as TokenRequest, transfer);
      });
      if (response.error) throw new Error(response.error);
      return response;
    } catch (error) {
      log.debug(`token worker: ${errorMessage(error)}; counting in this thread`);
      return undefined;
    }
  }

  private ensureWorker(): Worker | undefined {
    if (this.worker || this.broken) return this.worker;
    if (!fs.existsSync(this.workerFile)) {
      this.broken = true;
      return undefined;
    }
    const worker = new Worker(this.workerFile);
    worker.unref();
    worker.on('message', (response: TokenResponse) => {
      const waiter = this.pending.get(response.id);
      this.pending.delete(response.id);
      if (this.pending.size === 0) {
        worker.unref();
        this.idleTimer = setTimeout(() => void this.endWorker(), this.idleMs);
        this.idleTimer.unref();
      }
      waiter?.resolve(response);
    });
    const fail = (error: Error) => {
      // A worker ended for being idle is not a failure.
      if (this.worker !== worker) return;
      this.broken = true;
      this.worker = undefined;
      for (const waiter of this.pending.values()) waiter.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`token worker exited (${code})`)));
    this.worker = worker;
    return worker;
  }
}

/** The in-thread tokenizer (tests and the benchmark use it to measure). */
export class InlineTokenizer implements Tokenizer {
  readonly name = TOKENIZER_NAME;
  async count(texts: string[]): Promise<number[]> {
    return texts.map(countTokens);
  }
  async head(text: string, maxTokens: number): Promise<{ text: string; tokens: number }> {
    return headWithin(text, maxTokens);
  }
  async close(): Promise<void> {}
}
