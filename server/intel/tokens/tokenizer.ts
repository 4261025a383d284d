/**
 * Counts tokens (o200k_base) in a worker thread when the compiled worker file is there, in this
 * thread otherwise (e.g. in a bundle without it). The worker keeps the process alive only while a
 * request is pending; a crashed worker is replaced by the in-thread tokenizer.
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

type Pending = { resolve: (response: TokenResponse) => void; reject: (error: Error) => void };

export class WorkerTokenizer implements Tokenizer {
  readonly name = TOKENIZER_NAME;
  private worker: Worker | undefined;
  private broken = false;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly workerFile = path.join(__dirname, 'token-worker.js')) {}

  async count(texts: string[]): Promise<number[]> {
    if (texts.length === 0) return [];
    const response = await this.request({ op: 'count', texts });
    return response?.counts ?? texts.map(countTokens);
  }

  async head(text: string, maxTokens: number): Promise<{ text: string; tokens: number }> {
    const response = await this.request({ op: 'head', text, maxTokens });
    return response?.head ?? headWithin(text, maxTokens);
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.broken = true;
    if (worker) await worker.terminate();
  }

  /** Undefined means "do it in this thread". */
  private async request(body: TokenRequestBody): Promise<TokenResponse | undefined> {
    const worker = this.ensureWorker();
    if (!worker) return undefined;
    const id = this.nextId++;
    try {
      const response = await new Promise<TokenResponse>((resolve, reject) => {
        this.pending.set(id, { resolve, reject });
        worker.ref();
        worker.postMessage({ ...body, id } as TokenRequest);
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
      if (this.pending.size === 0) worker.unref();
      waiter?.resolve(response);
    });
    const fail = (error: Error) => {
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
