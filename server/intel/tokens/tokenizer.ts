/**
 * Counts tokens (o200k_base) in a worker thread when the compiled worker file is there, in this
 * thread otherwise (e.g. in a bundle without it). The worker keeps the process alive only while a
 * request is pending, and ends after IDLE_MS without one (its encoder holds about 50 MB; the next
 * request starts a new one); a crashed worker is replaced by the in-thread tokenizer.
 */
import * as path from 'node:path';
import { errorMessage, logger } from '../../log.js';
import { IdleWorker } from '../../util/idle-worker.js';
import { countTokens, headWithin, TOKENIZER_NAME } from './tokenizer-core.js';
import type { TokenRequestBody, TokenResponse } from './token-worker.js';

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

export class WorkerTokenizer implements Tokenizer {
  readonly name = TOKENIZER_NAME;
  private readonly thread: IdleWorker<TokenRequestBody, TokenResponse>;

  constructor(workerFile = path.join(__dirname, 'token-worker.js'), idleMs = IDLE_MS) {
    this.thread = new IdleWorker(workerFile, idleMs, 'token');
  }

  /** Whether a worker thread is running now. */
  get running(): boolean {
    return this.thread.running;
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

  close(): Promise<void> {
    return this.thread.close();
  }

  /** Undefined means "do it in this thread". */
  private async request(body: TokenRequestBody, transfer: ArrayBuffer[] = []): Promise<TokenResponse | undefined> {
    try {
      const response = await this.thread.request(body, transfer);
      if (response?.error) throw new Error(response.error);
      return response;
    } catch (error) {
      log.debug(`token worker: ${errorMessage(error)}; counting in this thread`);
      return undefined;
    }
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
