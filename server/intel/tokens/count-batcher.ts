import type { Tokenizer } from './tokenizer.js';

interface Waiting {
  texts: string[];
  done: (counts: number[]) => void;
  failed: (error: unknown) => void;
}

/**
 * Token counts that nobody waits for on an answer's path, sent to the tokenizer many at a time:
 * a request waits up to `delayMs` (or until `maxTexts` texts wait) and all waiting texts go in one
 * `count`, so a busy gateway makes one worker round trip per batch instead of one per call.
 * `flush()` sends what waits at once; `settled()` resolves once nothing waits or is being counted.
 */
export class CountBatcher {
  private waiting: Waiting[] = [];
  private texts = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  /** The last batch sent: a batch with nothing to count settles after it, in order. */
  private tail: Promise<void> = Promise.resolve();

  constructor(
    private readonly tokenizer: Pick<Tokenizer, 'count'>,
    private readonly delayMs = 200,
    private readonly maxTexts = 1_000,
  ) {}

  count(texts: string[]): Promise<number[]> {
    return new Promise((resolve, reject) => this.add(texts, resolve, reject));
  }

  /**
   * `done` gets the counts of `texts` (in order) once their batch is counted; `failed` gets the
   * batch's error, or what `done` threw. No promise per request: the ledger calls this per result.
   * Nothing to count settles at once when nothing waits, else in its turn after what was added before.
   */
  add(texts: string[], done: (counts: number[]) => void, failed: (error: unknown) => void): void {
    if (texts.length === 0 && this.waiting.length === 0 && this.inFlight.size === 0) return settle(done, failed, []);
    this.waiting.push({ texts, done, failed });
    this.texts += texts.length;
    if (this.texts >= this.maxTexts) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.delayMs);
  }

  /** Sends everything waiting now. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.waiting;
    if (batch.length === 0) return;
    this.waiting = [];
    this.texts = 0;
    const texts = batch.flatMap((w) => w.texts);
    const counting = texts.length > 0 ? this.tokenizer.count(texts) : this.tail.then(() => [] as number[]);
    const counted = counting.then(
      (counts) => {
        let at = 0;
        for (const w of batch) {
          settle(w.done, w.failed, counts.slice(at, at + w.texts.length));
          at += w.texts.length;
        }
      },
      (error: unknown) => {
        for (const w of batch) w.failed(error);
      },
    );
    this.tail = counted;
    this.inFlight.add(counted);
    void counted.finally(() => this.inFlight.delete(counted));
  }

  /** Resolves once every request made so far (and any made meanwhile) has its counts or its error. */
  async settled(): Promise<void> {
    while (this.waiting.length > 0 || this.inFlight.size > 0) {
      this.flush();
      await Promise.all([...this.inFlight]);
    }
  }
}

function settle(done: (counts: number[]) => void, failed: (error: unknown) => void, counts: number[]): void {
  try {
    done(counts);
  } catch (error) {
    failed(error);
  }
}
