import * as fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { withoutGatewaySecrets } from './gateway-secrets.js';

interface Waiter<R> {
  resolve: (response: R) => void;
  reject: (error: Error) => void;
}

/**
 * A worker thread started by the first request and ended after `idleMs` without one; it keeps the
 * process alive only while a request is pending. Each request and its answer carry an `id`. When
 * the worker file is missing, or a worker failed or exited (other than for being idle), or after
 * `close`, there is no worker: `request` answers undefined and the caller does the work in its
 * own thread.
 */
export class IdleWorker<Q extends object, R extends { id: number }> {
  private worker: Worker | undefined;
  private broken = false;
  private nextId = 1;
  private readonly pending = new Map<number, Waiter<R>>();
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly file: string,
    private readonly idleMs: number,
    /** Names the worker in its errors ("token": "token worker exited (1)"). */
    private readonly label: string,
  ) {}

  /** Whether a worker thread is running now. */
  get running(): boolean {
    return this.worker !== undefined;
  }

  /** The worker's answer; undefined when there is no worker. Rejects when the worker fails or is closed before it answers. */
  async request(body: Q, transfer: ArrayBuffer[] = []): Promise<R | undefined> {
    const worker = this.ensureWorker();
    if (!worker) return undefined;
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      clearTimeout(this.idleTimer);
      worker.ref();
      worker.postMessage({ ...body, id }, transfer);
    });
  }

  /** Ends the worker for good: what is pending is rejected, and later requests answer undefined. */
  async close(): Promise<void> {
    this.broken = true;
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    this.worker = undefined;
    for (const waiter of this.pending.values()) waiter.reject(new Error(`${this.label} worker closed`));
    this.pending.clear();
    if (worker) await worker.terminate();
  }

  private ensureWorker(): Worker | undefined {
    if (this.worker || this.broken) return this.worker;
    if (!fs.existsSync(this.file)) {
      this.broken = true;
      return undefined;
    }
    const worker = new Worker(this.file, { env: withoutGatewaySecrets(process.env) });
    worker.unref();
    worker.on('message', (response: R) => {
      const waiter = this.pending.get(response.id);
      this.pending.delete(response.id);
      if (this.pending.size === 0) {
        worker.unref();
        this.idleTimer = setTimeout(() => void this.endIdle(worker), this.idleMs);
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
    worker.on('exit', (code) => fail(new Error(`${this.label} worker exited (${code})`)));
    this.worker = worker;
    return worker;
  }

  private async endIdle(worker: Worker): Promise<void> {
    if (this.worker !== worker || this.pending.size > 0) return;
    this.worker = undefined;
    await worker.terminate();
  }
}
