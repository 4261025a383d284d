/**
 * The agent's stdio connection while nobody reads it yet: the first message it gets is shown to
 * `open`, which decides who reads the connection and connects that reader to this transport. That
 * message and every one after it wait until `release()`, then go to the reader in order; from then
 * on messages pass straight through.
 */
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/server';

export class OpeningTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Messages that wait for `release()`; undefined once released. */
  private held: JSONRPCMessage[] | undefined = [];
  private opened = false;

  constructor(
    private readonly wire: Transport,
    private readonly open: (first: JSONRPCMessage) => void,
  ) {}

  /** Starts reading the wire: `open` gets its first message (during this call, if the wire already holds one). */
  listen(): Promise<void> {
    this.wire.onmessage = (message) => {
      if (!this.held) return this.onmessage?.(message);
      this.held.push(message);
      if (this.opened) return;
      this.opened = true;
      this.open(message);
    };
    this.wire.onerror = (error) => this.onerror?.(error);
    this.wire.onclose = () => this.onclose?.();
    return this.wire.start();
  }

  /** The reader's connect starts nothing: the wire is read since `listen()`, and what came waits for `release()`. */
  async start(): Promise<void> {}

  /** Hands the reader what came so far, in order, and every later message as it comes. */
  release(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const message of held) this.onmessage?.(message);
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.wire.send(message, options);
  }

  setProtocolVersion(version: string): void {
    this.wire.setProtocolVersion?.(version);
  }

  close(): Promise<void> {
    return this.wire.close();
  }
}
