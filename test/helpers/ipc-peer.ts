/**
 * A JSON-RPC peer over a forked child's IPC channel, as vscode-jsonrpc's IPC transport does it (the gateway
 * process as VS Code drives it).
 */
import type { ChildProcess } from 'node:child_process';
import type * as protocol from '../../protocol/extension-methods.js';

interface Message {
  jsonrpc: '2.0';
  id?: number;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

export class IpcPeer {
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error & { code?: number }) => void }
  >();
  readonly notifications: Array<{ method: string; params: unknown }> = [];
  readonly stderr: string[] = [];
  /** Answers to requests from the server, by method (others get null). */
  readonly handlers = new Map<string, (params: unknown) => unknown>();

  constructor(readonly child: ChildProcess) {
    child.on('message', (message: Message) => {
      if (message.id !== undefined && message.method === undefined) {
        const waiter = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.error)
          waiter?.reject(Object.assign(new Error(message.error.message), { code: message.error.code }));
        else waiter?.resolve(message.result);
      } else if (message.method && message.id !== undefined) {
        // A request from the server (window/showMessageRequest, ...): answer it.
        this.notifications.push({ method: message.method, params: message.params });
        const handler = this.handlers.get(message.method);
        child.send({ jsonrpc: '2.0', id: message.id, result: handler ? handler(message.params) : null });
      } else if (message.method) {
        this.notifications.push({ method: message.method, params: message.params });
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => this.stderr.push(chunk.toString()));
  }

  request<P, R>(type: protocol.RequestType<P, R> | { method: string }, params: P): Promise<R> {
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.child.send({ jsonrpc: '2.0', id, method: type.method, params });
    });
  }

  notify(method: string, params: unknown): void {
    this.child.send({ jsonrpc: '2.0', method, params });
  }

  received<P>(type: protocol.NotificationType<P>): P[] {
    return this.notifications.filter((n) => n.method === type.method).map((n) => n.params as P);
  }

  last<P>(type: protocol.NotificationType<P>): P | undefined {
    return this.received(type).at(-1);
  }

  /** LSP shutdown then exit; waits for the process to end. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    await this.request({ method: 'shutdown' }, null).catch(() => undefined);
    this.notify('exit', null);
    await new Promise((resolve) => this.child.once('exit', resolve));
  }
}
