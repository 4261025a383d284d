import type { ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import crossSpawn from 'cross-spawn';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { BoundedLines, type CutLine } from '../../util/bounded-lines.js';
import { childSupervisor, type ChildSupervisor } from './child-supervisor.js';
import { cutMessageId, megabytes, tooLargeAnswer } from './oversize-message.js';
import { platformSpawn } from './platform-spawn.js';
import { releaseCoalesced, writeJsonLine } from '../../util/coalesced-write.js';
import { jsonRpcKind } from '../../util/json-rpc-shape.js';

export interface ChildCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

export interface ChildTransportOptions {
  /** The largest message read from the child; a larger answer becomes a "result too large" error. */
  maxMessageBytes: number;
  /** How long a stopping child (and then its group) gets after stdin closes and after SIGTERM. */
  graceMs?: number;
  supervisor?: ChildSupervisor;
}

type Id = string | number;

/**
 * The client side of a stdio MCP server, in place of the SDK's StdioClientTransport: the command
 * is started with cross-spawn (PATHEXT and .cmd/.bat shims on Windows, as the SDK and VS Code do)
 * in a process group of its own, under the gateway's one supervisor; its stdout is read in bounded
 * lines, so an answer over the limit fails its own request instead of the connection; stopping it
 * ends its whole group, grandchildren included.
 */
export class ChildProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child?: ChildProcess;
  private readonly stderrStream = new PassThrough();
  private readonly waiting = new Set<Id>();
  private readonly graceMs: number;
  private readonly supervisor: ChildSupervisor;
  private closed = false;
  /** How the child ended, once it has. */
  exit?: { code: number | null; signal: NodeJS.Signals | null };

  constructor(
    private readonly spec: ChildCommand,
    private readonly options: ChildTransportOptions,
  ) {
    this.graceMs = options.graceMs ?? 2000;
    this.supervisor = options.supervisor ?? childSupervisor;
  }

  /** The child's stderr, available before start so no early line is lost. */
  get stderr(): NodeJS.ReadableStream {
    return this.stderrStream;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('ChildProcessTransport already started');
    return new Promise((resolve, reject) => {
      const child = crossSpawn(this.spec.command, this.spec.args, {
        env: this.spec.env,
        cwd: this.spec.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        ...platformSpawn(this.graceMs).childOptions,
      });
      this.child = child;
      child.once('spawn', () => {
        if (child.pid) this.supervisor.adopt(child.pid);
        resolve();
      });
      child.once('error', (error) => {
        this.onerror?.(error);
        reject(error);
        this.finish();
      });
      child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        // What the child left behind in its group goes too; then its pipes close and the last of
        // its output is read (a process that escaped the group may hold them: the timer covers it).
        const ended = child.pid
          ? this.supervisor.end(child.pid, this.graceMs, { leaderExited: true })
          : Promise.resolve();
        void ended.then(() => setTimeout(() => this.finish(), this.graceMs).unref());
      });
      child.once('close', () => this.finish());
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      const lines = new BoundedLines(
        this.options.maxMessageBytes,
        (line) => this.receive(line),
        (cut) => this.receiveTooLarge(cut),
      );
      child.stdout?.on('data', (chunk: Buffer) => lines.push(chunk));
      child.stderr?.pipe(this.stderrStream);
    });
  }

  private receive(text: string): void {
    if (!text.trim()) return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    const kind = jsonRpcKind(message);
    if (!kind) {
      this.onerror?.(
        new Error(`dropped a line of ${text.length} characters from the server that is not a JSON-RPC 2.0 message`),
      );
      return;
    }
    if (kind === 'result' || kind === 'error') this.waiting.delete((message as { id: Id }).id);
    this.onmessage?.(message as JSONRPCMessage);
  }

  private receiveTooLarge(cut: CutLine): void {
    const id = cutMessageId(cut, this.waiting);
    if (id === undefined) {
      this.onerror?.(
        new Error(
          `dropped a message of ${megabytes(cut.bytes)} from the server (limit ` +
            `${megabytes(this.options.maxMessageBytes)}) that answered no waiting request`,
        ),
      );
      return;
    }
    this.waiting.delete(id);
    this.onmessage?.(tooLargeAnswer(id, cut.bytes, this.options.maxMessageBytes));
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.closed) return Promise.reject(new Error('Not connected'));
    if ('method' in message && 'id' in message) this.waiting.add(message.id as Id);
    return writeJsonLine(stdin, message);
  }

  /** Closes stdin, gives the child the grace period to exit, then ends its whole group. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child || this.closed) return this.finish();
    try {
      if (child.stdin) releaseCoalesced(child.stdin);
      child.stdin?.end();
    } catch {
      // already closed
    }
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, this.graceMs);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve(undefined);
        });
      });
    }
    if (child.pid) await this.supervisor.end(child.pid, this.graceMs);
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.waiting.clear();
    this.onclose?.();
  }
}
