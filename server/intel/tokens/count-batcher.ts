import type { Tokenizer } from './tokenizer.js';

interface Waiting {
  texts: string[];
  resolve: (counts: number[]) => void;
  reject: (error: unknown) => void;
}

/**
 * Token counts that nobody waits for on an answer's path, sent to the tokenizer many at a time:
 * a request waits up to `delayMs` (or until `maxTexts` texts wait) and all waiting texts go in one
 * `count`, so a busy gateway makes one worker round trip per batch instead of one per call.
 * `flush()` sends what waits at once.
 */
export class CountBatcher {
  private waiting: Waiting[] = [];
  private texts = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly tokenizer: Pick<Tokenizer, 'count'>,
    private readonly delayMs = 200,
    private readonly maxTexts = 1_000,
  ) {}

  count(texts: string[]): Promise<number[]> {
    if (texts.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.waiting.push({ texts, resolve, reject });
      this.texts += texts.length;
      if (this.texts >= this.maxTexts) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.delayMs);
    });
  }

  /** Sends everything waiting now. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.waiting;
    if (batch.length === 0) return;
    this.waiting = [];
    this.texts = 0;
    this.tokenizer.count(batch.flatMap((w) => w.texts)).then(
      (counts) => {
        let at = 0;
        for (const w of batch) {
          w.resolve(counts.slice(at, at + w.texts.length));
          at += w.texts.length;
        }
      },
      (error: unknown) => {
        for (const w of batch) w.reject(error);
      },
    );
  }
}
